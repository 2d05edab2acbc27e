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

/**
 * One message. A message the customer deleted shows only that it was; an edited one says so by
 * its time; one the business sent from the WhatsApp app on the phone is signed by the app.
 */
export function MessageBubble({ message, onReply, onRetry }: Props) {
  const { t } = useTranslation();
  const outgoing = message.direction === 'outgoing';
  const revoked = Boolean(message.revoked_at || message.content.revoked);
  const sender = message.content.echo ? t('message.echoSender') : message.sender_name;
  return (
    <article
      className={`bubble ${outgoing ? 'outgoing' : 'incoming'}${revoked ? ' revoked' : ''}`}
      aria-label={t(outgoing ? 'message.outgoing' : 'message.incoming')}
      data-message-id={message.message_id}
    >
      {outgoing && sender && <span className="sender">{sender}</span>}
      {revoked ? <p className="revoked-text">{t('message.deleted')}</p> : <MessageContent message={message} onReply={onReply} />}
      <footer className="bubble-meta" title={formatDateTime(message.timestamp)}>
        {message.edited_at && !revoked && (
          <span className="edited" title={formatDateTime(message.edited_at)}>
            {t('message.edited')}
          </span>
        )}
        <time dateTime={message.timestamp}>{formatTime(message.timestamp)}</time>
        {outgoing && <StatusIcon status={message.status} />}
        {outgoing && message.status === 'failed' && (
          <button type="button" className="link-button" onClick={() => onRetry(message.message_id)}>
            {t('message.retry')}
          </button>
        )}
        {!revoked && <MessageActions message={message} />}
      </footer>
    </article>
  );
}
