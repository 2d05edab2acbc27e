import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router';
import { useFieldValidity } from '../../../components/use-field-validity';
import { messageOf } from '../../../lib/api/client';
import { isAuthenticated, saveSession } from '../../../lib/api/session-store';
import { rememberedUser } from '../../../lib/preferences/preferences';
import { login } from '../api/auth-api';
import { useRememberMe } from '../hooks/use-remember-me';
import { AuthLayout } from './auth-layout';
import { GoogleButton } from './google-button';

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [username, setUsername] = useState(() => (rememberedUser().rememberUser ? rememberedUser().lastUsername : ''));
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const { remember, setRemember, afterLogin } = useRememberMe(username, setUsername);
  const form = useFieldValidity();

  if (isAuthenticated()) return <Navigate to="/whatsapp" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    setSubmitting(true);
    try {
      const answer = await login(username.trim(), password);
      saveSession(answer);
      afterLogin(username.trim(), password);
      navigate('/whatsapp', { replace: true });
    } catch (failure) {
      setError(messageOf(failure, t('auth.loginFailed')));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={t('auth.loginTitle')}>
      <form ref={form} onSubmit={(event) => void submit(event)} className="form">
        <label>
          {t('auth.emailOrUsername')}
          <input
            name="username"
            autoComplete="username"
            required
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
        </label>
        <label>
          {t('auth.password')}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
          {t('auth.rememberMe')}
        </label>
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={submitting}>
          {t('auth.login')}
        </button>
      </form>
      <GoogleButton />
      <p>
        {t('auth.noAccount')} <Link to="/register">{t('auth.register')}</Link>
      </p>
    </AuthLayout>
  );
}
