import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { detailOf } from '../../../lib/api/client';
import type { Conversation, Message } from '../../../lib/api/types';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { markAsRead, reactToMessage } from '../api/inbox-api';
import { customerKey } from '../../../lib/customer/customer-key';
import { postNote } from '../api/team-api';
import { cannedValuesOf } from '../canned';
import { conversationIdOf } from '../conversation-id';
import { titleOf } from '../customer-labels';
import { useCannedReplies } from '../hooks/use-canned-replies';
import { useShownMessage, type MessageFocus } from '../hooks/use-message-focus';
import { useMessages, type Draft } from '../hooks/use-messages';
import { usePresence } from '../hooks/use-presence';
import { useReplyWindow } from '../hooks/use-reply-window';
import { lastIncomingTimestamp } from '../messages-state';
import { nextReaction } from '../reply-context';
import { ChatHeader } from './chat-header';
import type { QuoteActions } from './message-actions';
import { MessageInput } from './message-input';
import { MessageList } from './message-list';
import { PresenceLine } from './presence-line';
import { TakeOverModal } from './take-over-modal';
import { TemplateDialog } from './template-dialog';

/** A swipe to the right at least this long goes back to the list on small screens. */
const SWIPE_BACK_PX = 80;

interface Props {
  conversation: Conversation;
  phoneNumberId: string | null;
  small: boolean;
  /** A message to scroll to and highlight (chosen from search results). */
  focus?: MessageFocus | null;
  onBack: () => void;
  onRead: (key: string) => void;
  onContactSaved: (key: string, name: string) => void;
  onContactDeleted: () => void;
  onTeamChange: (row: Conversation) => void;
  /**
   * The conversation's row as its history names it, with the key the history was read by (the
   * row may name another: a BSUID joined to a phone). Stable: each new one reads the history again.
   */
  onRowRead: (row: Conversation, key: string) => void;
}

function later(a: string | null, b: string | null): string | null {
  if (!a || !b) return a ?? b;
  return new Date(a) > new Date(b) ? a : b;
}

export function ChatPane({ conversation, phoneNumberId, small, focus, onBack, onRead, onContactSaved, onContactDeleted, onTeamChange, onRowRead }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const key = customerKey(conversation);
  const channel = conversation.conversation_id || (phoneNumberId ? conversationIdOf(phoneNumberId, key) : '');
  const chat = useMessages(key, channel, phoneNumberId, onRowRead);
  const quoteMissing = useCallback(() => showToast(t('quote.notFound'), 'info', CHAT_TOAST_MS), [showToast, t]);
  const shown = useShownMessage(chat, key, focus ?? null, quoteMissing);
  const presence = usePresence(channel);
  const lastIncoming = later(conversation.last_incoming_timestamp, lastIncomingTimestamp(chat.messages));
  const replyWindow = useReplyWindow(lastIncoming);
  // A row that does not carry the customer's last message time (one a live event added) learns it
  // from the history: until that is read, the window is not said to be closed.
  const windowKnown = lastIncoming !== null || !chat.loading;
  const touchStart = useRef<{ x: number; y: number } | null>(null);
  const [templateOpen, setTemplateOpen] = useState(false);
  const canned = useCannedReplies();

  useEffect(() => {
    markAsRead(key)
      .then(() => onRead(key))
      .catch((error: unknown) => console.warn('mark-as-read failed', error));
  }, [key, onRead]);

  const fail = useCallback(
    (fallback: string) => (error: unknown) => showToast(detailOf(error, t(fallback)), 'error', CHAT_TOAST_MS),
    [showToast, t],
  );
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const send = (draft: Draft) => {
    if (draft.replyTo) setReplyTo(null);
    void chat.send(draft).catch(fail('chat.sendFailed'));
  };
  const quoting: QuoteActions = {
    onQuote: setReplyTo,
    onReact: (message, emoji) => void reactToMessage(key, message.message_id, nextReaction(message, emoji)).catch(fail('quote.reactFailed')),
  };
  const reply = (text: string) => send({ text, files: [] });
  const note = (text: string) =>
    postNote(key, text)
      .then(chat.add)
      .catch((error: unknown) => {
        fail('team.noteFailed')(error);
        throw error;
      });
  const retry = (messageId: string) => {
    showToast(t('retryingMessage'), 'info', CHAT_TOAST_MS);
    void chat.retry(messageId).catch(fail('retryFailed'));
  };

  return (
    <section
      className="chat-pane"
      aria-label={titleOf(conversation) || t('inbox.unknown')}
      onTouchStart={(event) => {
        const touch = event.touches[0];
        touchStart.current = touch ? { x: touch.clientX, y: touch.clientY } : null;
      }}
      onTouchEnd={(event) => {
        const start = touchStart.current;
        const touch = event.changedTouches[0];
        if (small && start && touch && touch.clientX - start.x > SWIPE_BACK_PX && Math.abs(touch.clientY - start.y) < SWIPE_BACK_PX) onBack();
      }}
    >
      <ChatHeader
        conversation={conversation}
        replyWindow={windowKnown ? replyWindow : null}
        showBack={small}
        onBack={onBack}
        onContactSaved={onContactSaved}
        onContactDeleted={onContactDeleted}
        onTeamChange={onTeamChange}
      />
      <PresenceLine teammates={presence.teammates} />
      {chat.loading ? (
        <div className="message-list-wrap centered" role="status">
          {t('loading')}
        </div>
      ) : chat.failed && chat.messages.length === 0 ? (
        <div className="message-list-wrap centered">{t('failed_fetch_from_server')}</div>
      ) : (
        <MessageList
          messages={chat.messages}
          hasOlder={chat.hasOlder}
          loadingOlder={chat.loadingOlder}
          onLoadOlder={chat.loadOlder}
          focusId={shown.shownId}
          onReply={reply}
          onRetry={retry}
          quoting={quoting}
          onQuoteNotLoaded={shown.showQuoted}
        />
      )}
      <MessageInput
        disabled={windowKnown && replyWindow.expired}
        onSend={send}
        onNote={note}
        onTyping={presence.typing}
        onTemplate={() => setTemplateOpen(true)}
        canned={canned.replies}
        cannedValues={cannedValuesOf(conversation, canned.agent)}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
      />
      {chat.refusal && (
        <TakeOverModal
          holder={chat.refusal.holder}
          onCancel={chat.dismissRefusal}
          onConfirm={() => void chat.takeOver().catch(fail('chat.sendFailed'))}
        />
      )}
      {templateOpen && <TemplateDialog phone={key} phoneNumberId={phoneNumberId} onClose={() => setTemplateOpen(false)} />}
    </section>
  );
}
