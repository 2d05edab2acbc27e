import { useTranslation } from 'react-i18next';
import type { Message } from '../../../lib/api/types';
import { formatDateTime, formatTime } from '../../../lib/format/dates';

/** A note for the team: a yellow bubble the customer never sees. */
export function NoteBubble({ message }: { message: Message }) {
  const { t } = useTranslation();
  const author = message.sender_name ?? t('team.system');
  return (
    <article className="bubble note" aria-label={t('team.noteBy', { name: author })} data-message-id={message.message_id}>
      <span className="sender">
        {t('team.note')} · {author}
      </span>
      <p className="note-text" dir="auto">
        {message.content.text}
      </p>
      <footer className="bubble-meta" title={formatDateTime(message.timestamp)}>
        <time dateTime={message.timestamp}>{formatTime(message.timestamp)}</time>
      </footer>
    </article>
  );
}
