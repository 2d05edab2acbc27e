import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_TOAST_MS, useToast } from '../toast/toast-context';
import { enableNotifications, refreshNotifications } from './notifications';
import { PushPermissionBlocked } from './push';

/** Once signed in: renews an existing push subscription (again after 7 days); never prompts. */
export function usePushSubscription(): void {
  useEffect(() => {
    refreshNotifications().catch((error: unknown) => console.warn('push subscription not renewed', error));
  }, []);
}

/** The bell's action: asks for notifications and says how it went, in the chat page's toasts (5 s). */
export function useEnableNotifications(): () => void {
  const { t } = useTranslation();
  const showToast = useToast();
  return useCallback(() => {
    enableNotifications().then(
      (enabled) => showToast(t(enabled ? 'native.notificationsOn' : 'native.notificationsFailed'), enabled ? 'success' : 'error', CHAT_TOAST_MS),
      (error: unknown) => {
        if (error instanceof PushPermissionBlocked) showToast(t('push.permissionBlocked'), 'info', CHAT_TOAST_MS);
        else {
          console.warn('push subscription failed', error);
          showToast(t('native.notificationsFailed'), 'error', CHAT_TOAST_MS);
        }
      },
    );
  }, [showToast, t]);
}
