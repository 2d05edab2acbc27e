import { useTranslation } from 'react-i18next';
import type { ReplyWindow } from '../reply-window';

export function ReplyWindowTimer({ state }: { state: ReplyWindow }) {
  const { t } = useTranslation();
  const className = state.expired ? 'expired' : state.nearExpiry ? 'near-expiry' : '';
  return (
    <span className={`reply-timer ${className}`} role="timer" aria-label={t('chat.replyWindow')}>
      {state.expired ? t('chat.windowExpired') : state.remaining}
    </span>
  );
}
