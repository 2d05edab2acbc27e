import type { TFunction } from 'i18next';
import { memo } from 'react';
import { Avatar } from '../../../components/avatar';
import { LabelChips } from '../../../components/label-chip';
import type { Conversation } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { formatListTime } from '../../../lib/format/dates';
import { handleOf, titleOf } from '../customer-labels';
import { AssigneeBadge } from './assignee-badge';
import { HighlightedText } from './highlighted-text';

/** Labels a list row shows by name; the rest are counted. */
const ROW_LABELS = 2;

interface Props {
  conversation: Conversation;
  query: string;
  selected: boolean;
  onSelect: (conversation: Conversation) => void;
  /** The list's `t`: a row of its own would subscribe to i18next on every mount while scrolling. */
  t: TFunction;
}

/**
 * One chat list row. Memoised: a scroll step or an arriving page re-renders the list, and only
 * the rows whose conversation, selection or search changed need to render again.
 */
export const ConversationRow = memo(function ConversationRow({ conversation, query, selected, onSelect, t }: Props) {
  const name = titleOf(conversation) || t('inbox.unknown');
  const handle = handleOf(conversation);
  const last = conversation.last_message_content;
  // A last message without text or caption (a picture, a sticker, a contact card) still is one.
  const empty = conversation.last_message_timestamp ? t('inbox.lastMessage') : t('inbox.noMessagesYet');
  const preview = last?.revoked ? t('message.deleted') : last?.text || last?.caption || empty;
  return (
    <button
      type="button"
      className={`conversation-row${selected ? ' selected' : ''}`}
      aria-current={selected ? 'true' : undefined}
      aria-label={name}
      data-key={customerKey(conversation)}
      onClick={() => onSelect(conversation)}
    >
      <Avatar name={name} />
      <span className="row-main">
        <span className="row-top">
          <span className="row-name" dir="auto">
            <HighlightedText text={name} query={query} />
          </span>
          {conversation.last_message_timestamp && (
            <time className="row-time" dateTime={conversation.last_message_timestamp}>
              {formatListTime(conversation.last_message_timestamp)}
            </time>
          )}
        </span>
        <span className="row-middle">
          <span className="row-phone">
            {handle !== name && (
              <bdi dir="ltr">
                <HighlightedText text={handle} query={query} />
              </bdi>
            )}
          </span>
          <LabelChips labels={conversation.labels} name={t('labels.ofConversation')} limit={ROW_LABELS} />
        </span>
        <span className="row-bottom">
          <span className="row-preview" dir="auto">{preview}</span>
          {conversation.status && conversation.status !== 'open' && (
            <span className={`status-chip status-${conversation.status}`}>{t(`team.status.${conversation.status}`)}</span>
          )}
          {conversation.assignee && <AssigneeBadge assignee={conversation.assignee} />}
          {conversation.unread_count > 0 && (
            <span className="badge" aria-label={t('inbox.unreadCount', { count: conversation.unread_count })}>
              {conversation.unread_count}
            </span>
          )}
        </span>
      </span>
    </button>
  );
});
