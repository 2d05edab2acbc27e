import { useTranslation } from 'react-i18next';
import type { MessageStatus } from '../../../lib/api/types';

const GLYPHS: Record<MessageStatus, string> = {
  sending: '🕓',
  pending: '🕓',
  sent: '✓',
  delivered: '✓✓',
  read: '✓✓',
  failed: '⚠',
};

/** Clock while sending or pending, one tick sent, two grey delivered, two blue read, red warning failed. */
export function StatusIcon({ status }: { status: MessageStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`status status-${status}`} role="img" aria-label={t(`status.${status}`)} data-status={status}>
      {GLYPHS[status]}
    </span>
  );
}
