import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { activeRegistration } from '../offline/service-worker';
import { useToast } from '../toast/toast-context';
import { ensurePushSubscription, PushPermissionBlocked } from './push';

/** Once signed in: subscribe this browser to push (again after 7 days); a refusal says so once. */
export function usePushSubscription(): void {
  const { t } = useTranslation();
  const showToast = useToast();
  useEffect(() => {
    let live = true;
    void activeRegistration()
      .then((registration) => registration && ensurePushSubscription(registration))
      .catch((error: unknown) => {
        if (error instanceof PushPermissionBlocked) {
          if (live && error.justRefused) showToast(t('push.permissionBlocked'), 'info');
        } else console.warn('push subscription failed', error);
      });
    return () => {
      live = false;
    };
  }, [showToast, t]);
}
