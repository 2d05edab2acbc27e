import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon';
import type { MessageStatus } from '../../../lib/api/types';

/** Clock while sending or pending, one tick sent, two grey delivered, two blue read, red warning failed. */
export function StatusIcon({ status }: { status: MessageStatus }) {
  const { t } = useTranslation();
  const glyph =
    status === 'sending' || status === 'pending' ? (
      <Icon name="clock" size={13} />
    ) : status === 'failed' ? (
      <Icon name="warning" size={13} />
    ) : status === 'sent' ? (
      '✓'
    ) : (
      '✓✓'
    );
  return (
    <span className={`status status-${status}`} role="img" aria-label={t(`status.${status}`)} data-status={status}>
      {glyph}
    </span>
  );
}
