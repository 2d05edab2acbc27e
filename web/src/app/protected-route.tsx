import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { isAuthenticated, raiseLogout } from '../lib/api/session-store';
import { useSessionCheck } from './use-session-check';

/** Renders at once when a refresh token is stored; the session check runs in the background. */
export function ProtectedRoute({ roles }: { roles?: string[] }) {
  const location = useLocation();
  if (!isAuthenticated()) return <Navigate to="/login" replace state={{ from: location }} />;
  return <CheckedOutlet roles={roles} />;
}

function CheckedOutlet({ roles }: { roles: string[] | undefined }) {
  const { t } = useTranslation();
  const { pending, role } = useSessionCheck();
  useEffect(() => {
    // Signing out in another tab removes the tokens all tabs share: this one follows to /login.
    const follow = (event: StorageEvent) => {
      if (event.storageArea === localStorage && !isAuthenticated()) raiseLogout();
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, []);
  if (roles && role && !roles.includes(role)) return <Navigate to="/unauthorized" replace />;
  return (
    <>
      {pending && (
        <div className="session-pending" role="status">
          {t('loading')}
        </div>
      )}
      <Outlet />
    </>
  );
}
