import { useTranslation } from 'react-i18next';
import type { ReplyWindow } from '../reply-window';

/** The time left to reply freely; its label and tooltip say what the countdown is. */
export function ReplyWindowTimer({ state }: { state: ReplyWindow }) {
  const { t } = useTranslation();
  const className = state.expired ? 'expired' : state.nearExpiry ? 'near-expiry' : '';
  const label = state.expired ? t('chat.replyWindowClosed') : t('chat.replyWindowOpen', { time: state.remaining });
  return (
    <span className={`reply-timer ${className}`} role="timer" aria-label={label} title={label}>
      {state.expired ? t('chat.windowExpired') : state.remaining}
    </span>
  );
}
