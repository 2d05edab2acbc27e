import { useTranslation } from 'react-i18next';
import type { ForwardMarks, Message } from '../../../lib/api/types';
import { formatDateTime, formatTime } from '../../../lib/format/dates';
import { useSwipeReply } from '../hooks/use-swipe-reply';
import { reactionsOf } from '../reply-context';
import { MessageActions, type QuoteActions } from './message-actions';
import { MessageContent } from './message-content';
import { QuotedMessage } from './quoted-message';
import { StatusIcon } from './status-icon';
import '../quote.css';

interface Props {
  message: Message;
  onReply: (text: string) => void;
  onRetry: (messageId: string) => void;
  /** Reply and react; left out for a message the server does not have yet. */
  quoting?: QuoteActions;
  /** Shows the message a quote names. */
  onOpenQuote: (messageId: string) => void;
}

/**
 * One message. A message the customer deleted shows only that it was; an edited one says so by
 * its time; one the business sent from the WhatsApp app on the phone is signed by the app. On a
 * touch screen, swiping it towards the reading direction starts a reply to it.
 */
export function MessageBubble({ message, onReply, onRetry, quoting, onOpenQuote }: Props) {
  const { t, i18n } = useTranslation();
  const outgoing = message.direction === 'outgoing';
  const revoked = Boolean(message.revoked_at || message.content.revoked);
  const sender = message.content.echo ? t('message.echoSender') : message.sender_name;
  const context = revoked ? undefined : message.content.context;
  const forwarded = forwardedLabel(context);
  const reactions = reactionsOf(message);
  const swipe = useSwipeReply(i18n.dir(), quoting && !revoked ? () => quoting.onQuote(message) : undefined);
  return (
    <article
      className={`bubble ${outgoing ? 'outgoing' : 'incoming'}${revoked ? ' revoked' : ''}`}
      aria-label={t(outgoing ? 'message.outgoing' : 'message.incoming')}
      data-message-id={message.message_id}
      style={swipe.shift ? { transform: `translateX(${swipe.shift}px)` } : undefined}
      onTouchStart={swipe.onTouchStart}
      onTouchMove={swipe.onTouchMove}
      onTouchEnd={swipe.onTouchEnd}
      onTouchCancel={swipe.onTouchEnd}
    >
      {outgoing && sender && <span className="sender">{sender}</span>}
      {forwarded && <span className="forwarded">{t(forwarded)}</span>}
      {context?.id && <QuotedMessage context={context} onOpen={onOpenQuote} />}
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
        {!revoked && <MessageActions message={message} quoting={quoting} />}
      </footer>
      {reactions.length > 0 && (
        <span className="reactions" role="img" aria-label={t('quote.reactions', { emoji: reactions.join(' ') })}>
          {reactions.join('')}
        </span>
      )}
    </article>
  );
}

/** The label of a forwarded message's key, or none for a message that was not forwarded. */
function forwardedLabel(context: ForwardMarks | undefined): string | undefined {
  if (context?.frequently_forwarded) return 'message.frequentlyForwarded';
  if (context?.forwarded) return 'message.forwarded';
  return undefined;
}
