import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <main className="centered">
      <h1>{t('unauthorized.title')}</h1>
      <p>{t('unauthorized.body')}</p>
      <Link to="/login">{t('auth.login')}</Link>
    </main>
  );
}
