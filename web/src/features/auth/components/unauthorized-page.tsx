import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isAuthenticated } from '../../../lib/api/session-store';

/** A page the user's role cannot open; a signed-in user is also offered the way back to the inbox. */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <main className="centered">
      <h1>{t('unauthorized.title')}</h1>
      <p>{t('unauthorized.body')}</p>
      {isAuthenticated() && (
        <Link to="/whatsapp">
          <span className="icon-mirror" aria-hidden="true">←</span> {t('profile.back')}
        </Link>
      )}
      <Link to="/login">{t('auth.login')}</Link>
    </main>
  );
}
