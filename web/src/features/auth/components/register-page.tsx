import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useFieldValidity } from '../../../components/use-field-validity';
import { messageOf } from '../../../lib/api/client';
import { saveSession } from '../../../lib/api/session-store';
import { accountLanguage, register, saveProfileLanguage, type RegisterRequest } from '../api/auth-api';
import { NAME_MAX, USERNAME_MAX, normalizeUsername, usernameFromNames } from '../username';
import { AuthLayout } from './auth-layout';
import { GoogleButton } from './google-button';

type Field = keyof RegisterRequest | 'confirmPassword';

/** `maxLength` and `minLength` mirror the server's rules; the server's refusal says the rest. */
const FIELDS: { name: Field; label: string; type: string; autoComplete: string; minLength?: number; maxLength?: number }[] = [
  { name: 'firstName', label: 'auth.firstName', type: 'text', autoComplete: 'given-name', maxLength: NAME_MAX },
  { name: 'lastName', label: 'auth.lastName', type: 'text', autoComplete: 'family-name', maxLength: NAME_MAX },
  { name: 'username', label: 'auth.username', type: 'text', autoComplete: 'username', minLength: 3, maxLength: USERNAME_MAX },
  { name: 'email', label: 'auth.email', type: 'email', autoComplete: 'email' },
  { name: 'password', label: 'auth.password', type: 'password', autoComplete: 'new-password', minLength: 8 },
  { name: 'confirmPassword', label: 'auth.confirmPassword', type: 'password', autoComplete: 'new-password' },
];

export function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<Field, string>>({
    firstName: '',
    lastName: '',
    username: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const form = useFieldValidity();

  const change = (name: Field, value: string) =>
    setValues((current) => ({ ...current, [name]: name === 'username' ? normalizeUsername(value) : value }));

  const suggestUsername = () =>
    setValues((current) =>
      current.username ? current : { ...current, username: usernameFromNames(current.firstName, current.lastName) },
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (values.password !== values.confirmPassword) {
      setError(t('auth.passwordsDoNotMatch'));
      return;
    }
    setSubmitting(true);
    try {
      const { confirmPassword: _confirm, ...request } = values;
      const answer = await register(request);
      if (answer.accessToken && answer.refreshToken) {
        saveSession({ accessToken: answer.accessToken, refreshToken: answer.refreshToken, role: answer.role });
        // The inbox takes the profile's language; a new profile's is the server's default.
        const language = accountLanguage(i18n.resolvedLanguage);
        if (language) await saveProfileLanguage(language).catch((error: unknown) => console.warn('language not saved', error));
        navigate('/whatsapp', { replace: true });
      } else {
        navigate('/login', { replace: true });
      }
    } catch (failure) {
      setError(messageOf(failure, t('auth.registerFailed')));
      setSubmitting(false);
    }
  };

  return (
    <AuthLayout title={t('auth.registerTitle')}>
      <form ref={form} onSubmit={(event) => void submit(event)} className="form">
        {FIELDS.map((field) => (
          <label key={field.name}>
            {t(field.label)}
            <input
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              minLength={field.minLength}
              maxLength={field.maxLength}
              required
              value={values[field.name]}
              onChange={(event) => change(field.name, event.target.value)}
              onBlur={field.name === 'firstName' || field.name === 'lastName' ? suggestUsername : undefined}
            />
          </label>
        ))}
        {error && (
          <p role="alert" className="form-error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={submitting}>
          {t('auth.register')}
        </button>
      </form>
      <GoogleButton />
      <p>
        {t('auth.haveAccount')} <Link to="/login">{t('auth.login')}</Link>
      </p>
    </AuthLayout>
  );
}
