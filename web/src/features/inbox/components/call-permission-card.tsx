import { useTranslation } from 'react-i18next';
import type { CallPermissionReply } from '../../../lib/api/types';
import { formatDateTime } from '../../../lib/format/dates';

/** Unix seconds (a number or a numeric string) as a date, or null when absent or unreadable. */
function expiryOf(reply: CallPermissionReply): Date | null {
  const seconds = Number(reply.expiration_timestamp);
  return reply.expiration_timestamp !== undefined && Number.isFinite(seconds) ? new Date(seconds * 1000) : null;
}

/** The customer's answer to a request to call them, with how long a granted permission lasts (for good, or until when). */
export function CallPermissionCard({ reply }: { reply: CallPermissionReply }) {
  const { t } = useTranslation();
  const granted = reply.response === 'accept';
  const expiry = expiryOf(reply);
  return (
    <div className="message-card">
      <strong className={granted ? 'card-title' : 'card-title declined'}>
        {t(granted ? 'message.callPermissionGranted' : 'message.callPermissionDeclined')}
      </strong>
      {granted && reply.is_permanent === true && <span className="muted">{t('message.callPermissionAlways')}</span>}
      {granted && reply.is_permanent !== true && expiry && (
        <span className="muted">{t('message.callPermissionUntil', { time: formatDateTime(expiry) })}</span>
      )}
    </div>
  );
}
