import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHAT_TOAST_MS, TOAST_MS, useToast } from '../toast/toast-context';
import { disableNotifications, enableNotifications, notificationsState, refreshNotifications } from './notifications';
import { PushPermissionBlocked, type NotificationsState } from './push';

/** Once signed in: renews the push subscription the user turned on (again after 7 days); never prompts. */
export function usePushSubscription(): void {
  useEffect(() => {
    refreshNotifications().catch((error: unknown) => console.warn('push subscription not renewed', error));
  }, []);
}

/**
 * Turning notifications on and saying how it went in toasts: the bell's last the chat page's 5 s,
 * the settings' the usual time. The answer settles once the toast is shown.
 */
export function useEnableNotifications(toastMs = CHAT_TOAST_MS): () => Promise<void> {
  const { t } = useTranslation();
  const showToast = useToast();
  return useCallback(
    () =>
      enableNotifications().then(
        (enabled) => showToast(t(enabled ? 'native.notificationsOn' : 'native.notificationsFailed'), enabled ? 'success' : 'error', toastMs),
        (error: unknown) => {
          if (error instanceof PushPermissionBlocked) showToast(t('push.permissionBlocked'), 'info', toastMs);
          else {
            console.warn('push subscription failed', error);
            showToast(t('native.notificationsFailed'), 'error', toastMs);
          }
        },
      ),
    [showToast, t, toastMs],
  );
}

/** The settings' row: this device's notification state (null while read) and the switch between on and off. */
export function useNotificationsSetting(): { state: NotificationsState | null; busy: boolean; toggle: () => Promise<void> } {
  const { t } = useTranslation();
  const showToast = useToast();
  const enable = useEnableNotifications(TOAST_MS);
  const [state, setState] = useState<NotificationsState | null>(null);
  const [busy, setBusy] = useState(false);
  const reload = useCallback(
    () =>
      notificationsState().then(setState, (error: unknown) => {
        console.warn('notification state unknown', error);
        setState('unsupported');
      }),
    [],
  );
  useEffect(() => void reload(), [reload]);

  // Both paths forget the token on this device before asking the server, and the device stops
  // listening even when the server cannot be reached; the server drops the subscription itself
  // once its push service reports it gone.
  const disable = useCallback(
    () =>
      disableNotifications().then(
        () => showToast(t('notificationsSetting.turnedOff'), 'success'),
        (error: unknown) => {
          console.warn('push unsubscription failed', error);
          showToast(t('notificationsSetting.offServerUnreachable'), 'info');
        },
      ),
    [showToast, t],
  );
  const toggle = useCallback(async () => {
    setBusy(true);
    await (state === 'on' ? disable() : enable());
    await reload();
    setBusy(false);
  }, [disable, enable, reload, state]);
  return { state, busy, toggle };
}
