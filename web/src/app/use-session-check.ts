import { useEffect, useState } from 'react';
import { ApiError, apiRequest } from '../lib/api/client';
import { getStoredRole, raiseLogout, saveRole } from '../lib/api/session-store';
import { setLanguage } from '../lib/i18n/i18n';

export interface SessionCheck {
  pending: boolean;
  role: string | null;
}

/**
 * The background session check of a protected route: GET /api/auth/protected-route answers the
 * role; a refused answer or a missing role hands over to the logout handling. The profile's
 * language then becomes the interface language.
 */
export function useSessionCheck(): SessionCheck {
  const [check, setCheck] = useState<SessionCheck>({ pending: true, role: getStoredRole() });
  useEffect(() => {
    let live = true;
    const run = async () => {
      try {
        const answer = await apiRequest<{ role?: string }>('/api/auth/protected-route');
        if (!answer?.role) {
          raiseLogout();
          return;
        }
        saveRole(answer.role);
        if (live) setCheck({ pending: false, role: answer.role });
        const profile = await apiRequest<{ language?: string }>('/api/users/profile');
        if (live && (profile.language === 'en' || profile.language === 'ar')) await setLanguage(profile.language);
      } catch (error) {
        // A server that refused the session ends it; a network failure keeps the stored session.
        if (error instanceof ApiError && error.status !== 403) raiseLogout();
        else if (live) setCheck((current) => ({ ...current, pending: false }));
      }
    };
    void run();
    return () => {
      live = false;
    };
  }, []);
  return check;
}
