import { useTranslation } from 'react-i18next';
import { useNotificationsSetting } from '../../../lib/push/use-push-subscription';

/** Every user: whether this device gets notifications, and the button that turns them on or off. */
export function NotificationsSection() {
  const { t } = useTranslation();
  const { state, busy, toggle } = useNotificationsSetting();
  const switchable = state === 'on' || state === 'off';
  return (
    <section className="panel-card" aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">{t('notificationsSetting.title')}</h2>
      <div className="setting-row">
        <div className="setting-text">
          <span id="notifications-device">{t('notificationsSetting.device')}</span>
          <span id="notifications-state" className="muted" role="status">
            {state ? t(`notificationsSetting.state.${state}`) : t('loading')}
          </span>
        </div>
        {switchable && (
          <button
            type="button"
            aria-describedby="notifications-device notifications-state"
            className={state === 'on' ? undefined : 'primary'}
            disabled={busy}
            onClick={() => void toggle()}
          >
            {t(state === 'on' ? 'notificationsSetting.turnOff' : 'notificationsSetting.turnOn')}
          </button>
        )}
      </div>
      {(state === 'blocked' || state === 'unsupported') && <p className="note">{t(`notificationsSetting.hint.${state}`)}</p>}
    </section>
  );
}
