import { useTranslation } from 'react-i18next';
import type { ReplyWindow } from '../reply-window';

export function ReplyWindowTimer({ window }: { window: ReplyWindow }) {
  const { t } = useTranslation();
  const className = window.expired ? 'expired' : window.nearExpiry ? 'near-expiry' : '';
  return (
    <span className={`reply-timer ${className}`} role="timer" aria-label={t('chat.replyWindow')}>
      {window.expired ? t('chat.windowExpired') : window.remaining}
    </span>
  );
}
