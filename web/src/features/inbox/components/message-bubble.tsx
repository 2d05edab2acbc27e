import { useTranslation } from 'react-i18next';
import type { Message } from '../../../lib/api/types';
import { formatDateTime, formatTime } from '../../../lib/format/dates';
import { MessageActions } from './message-actions';
import { MessageContent } from './message-content';
import { StatusIcon } from './status-icon';

interface Props {
  message: Message;
  onReply: (text: string) => void;
  onRetry: (messageId: string) => void;
}

export function MessageBubble({ message, onReply, onRetry }: Props) {
  const { t } = useTranslation();
  const outgoing = message.direction === 'outgoing';
  return (
    <article
      className={`bubble ${outgoing ? 'outgoing' : 'incoming'}`}
      aria-label={t(outgoing ? 'message.outgoing' : 'message.incoming')}
      data-message-id={message.message_id}
    >
      {outgoing && message.sender_name && <span className="sender">{message.sender_name}</span>}
      <MessageContent message={message} onReply={onReply} />
      <footer className="bubble-meta" title={formatDateTime(message.timestamp)}>
        <time dateTime={message.timestamp}>{formatTime(message.timestamp)}</time>
        {outgoing && <StatusIcon status={message.status} />}
        {outgoing && message.status === 'failed' && (
          <button type="button" className="link-button" onClick={() => onRetry(message.message_id)}>
            {t('message.retry')}
          </button>
        )}
        <MessageActions message={message} />
      </footer>
    </article>
  );
}
