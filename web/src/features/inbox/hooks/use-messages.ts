import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentAccount } from '../../../lib/api/token-claims';
import type { Assignee, Conversation, Message, MessageType } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { isOnline } from '../../../lib/offline/connectivity';
import type { PendingMessage } from '../../../lib/offline/db';
import { saveMessages, savedMessages } from '../../../lib/offline/local-store';
import { enqueue, markSent, onOutboxChange, pendingMessages, retryMessage } from '../../../lib/offline/outbox';
import { syncFromPage } from '../../../lib/offline/send-message';
import { requestBackgroundSync } from '../../../lib/offline/service-worker';
import { useFollow, useRealtime, useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { getMessages } from '../api/inbox-api';
import { contextOf } from '../reply-context';
import { refusalError } from '../send-refusal';
import { applyStatus, applyStatusEvent, confirmSent, mergeMessages, renameConfirmed, replaceMessage } from '../messages-state';

export interface MessagesState {
  messages: Message[];
  hasOlder: boolean;
  loading: boolean;
  loadingOlder: boolean;
  failed: boolean;
}

const EMPTY: MessagesState = { messages: [], hasOlder: false, loading: true, loadingOlder: false, failed: false };

/** Messages refused because a teammate holds the conversation, waiting for the user's take-over. */
export interface Refusal {
  holder: Assignee;
  messageIds: string[];
}

/** What the composer hands over: text and/or files; the first file carries the text as caption
 * (an audio file cannot: the text then follows as a message). */
export interface Draft {
  text: string;
  files: File[];
  /** The message this one answers (a quoted reply); the first part carries it. */
  replyTo?: Message;
}

function typeOfFile(file: File): MessageType {
  const kind = file.type.split('/')[0];
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'document';
}

let lastStamp = 0;

/** Send order is queue order: each new message gets a strictly later timestamp. */
function nextTimestamp(): string {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp).toISOString();
}

/** How a queued message shows in the conversation until the server has it. */
function displayed(pending: PendingMessage): Message {
  const type = pending.message_type as MessageType;
  const content = pending.file
    ? {
        caption: pending.caption,
        [type]: { media_url: URL.createObjectURL(pending.file), mime_type: pending.file.type, filename: pending.filename },
      }
    : { text: pending.text };
  return {
    message_id: pending.tempMessageId,
    timestamp: pending.originalTimestamp,
    status: pending.status,
    direction: 'outgoing',
    type,
    content: pending.context ? { ...content, context: pending.context } : content,
    conversation_id: pending.conversation_id,
  };
}

/**
 * One conversation's messages (mount it per conversation, keyed by the customer key): the newest 30,
 * older pages on demand, live events, and sending through the outbox. Offline, the saved
 * messages and the queued ones show. Each newest page's row (name, status, holder, labels) goes
 * to `onRow` with the key it was read by, for a conversation the list does not hold; a BSUID
 * that WhatsApp has since joined to a phone answers with the phone's row.
 */
export function useMessages(key: string, conversationId: string, phoneNumberId: string | null, onRow: (row: Conversation, key: string) => void) {
  const [state, setState] = useState<MessagesState>(EMPTY);
  /** Temporary ids of this conversation's messages still in the outbox. */
  const queued = useRef(new Set<string>());
  /**
   * Temporary ids confirmed sent while this pane is open, with the provider's id each became: a
   * read begun before a confirmation (of the outbox, or a page the server answered while the send
   * was under way) must not bring the temporary copy back beside the confirmed one.
   */
  const confirmed = useRef(new Map<string, string>());
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const { t } = useTranslation();
  const showToast = useToast();
  useFollow(conversationId);

  /**
   * Queued messages that the newest page shows the server already holds (their
   * `client_message_id`) are confirmed at once, so the page's merge shows each once, and leave
   * the outbox (`markSent`). Older pages cannot hold them: a queued message is the newest.
   */
  const settle = useCallback((messages: Message[]) => {
    for (const message of messages) {
      const tempId = message.client_message_id;
      if (!tempId || !queued.current.has(tempId)) continue;
      queued.current.delete(tempId);
      confirmed.current.set(tempId, message.message_id);
      void markSent(tempId, message.message_id).catch((error: unknown) => console.warn('outbox not updated', error));
    }
  }, []);

  // The newest page joins what shows rather than replacing it: a message sent or received while
  // the page was on its way is not in it, and must not vanish (nor the older pages read before).
  const loadLatest = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const page = await getMessages(key, undefined, signal);
        void saveMessages(conversationId, page.messages).catch((error: unknown) => console.warn('messages not saved', error));
        settle(page.messages);
        if (page.conversation) onRow(page.conversation, key);
        setState((current) => ({
          ...current,
          messages: mergeMessages(renameConfirmed(current.messages, confirmed.current), renameConfirmed(page.messages, confirmed.current)),
          hasOlder: page.has_more_older,
          loading: false,
          failed: false,
        }));
      } catch {
        if (signal?.aborted) return;
        try {
          const saved = await savedMessages(conversationId);
          if (signal?.aborted) return;
          showToast(t(isOnline() ? 'failed_loading_latest_messages' : 'offline_showing_saved_data'), 'info', CHAT_TOAST_MS);
          setState((current) => ({
            ...current,
            messages: mergeMessages(current.messages, renameConfirmed(saved, confirmed.current)),
            loading: false,
            failed: saved.length === 0,
          }));
        } catch {
          showToast(t('failed_show_saved_messages'), 'error', CHAT_TOAST_MS);
          setState((current) => ({ ...current, loading: false, failed: true }));
        }
      }
    },
    [key, conversationId, settle, onRow, showToast, t],
  );

  const { ready } = useRealtime();
  useEffect(() => {
    if (!ready) return undefined;
    const controller = new AbortController();
    void pendingMessages(currentAccount())
      .then((all) => {
        const mine = all.filter((message) => message.to === key && !confirmed.current.has(message.tempMessageId));
        mine.forEach((message) => queued.current.add(message.tempMessageId));
        const shown = mine.map((m) => ({ ...displayed(m), ...(m.failure !== undefined ? { error: refusalError(m.failure, t) } : {}) }));
        if (!controller.signal.aborted) setState((current) => ({ ...current, messages: mergeMessages(current.messages, shown) }));
      })
      .catch((error: unknown) => console.warn('outbox not readable', error))
      .finally(() => void loadLatest(controller.signal));
    return () => controller.abort();
  }, [key, loadLatest, ready, t]);

  useEffect(
    () =>
      onOutboxChange((change) => {
        const id = change.tempMessageId;
        if (change.status === 'sent') confirmed.current.set(id, change.messageId ?? id);
        if (!queued.current.has(id)) return;
        if (change.status === 'sent') {
          queued.current.delete(id);
          setState((current) => ({ ...current, messages: confirmSent(current.messages, id, change.messageId) }));
          return;
        }
        const holder = change.heldBy;
        if (holder) setRefusal((current) => ({ holder, messageIds: [...(current?.messageIds ?? []), id] }));
        if (change.status === 'pending' && change.retryCount === 1) showToast(t('failed_send_message_will_retry'), 'error', CHAT_TOAST_MS);
        const failure = change.failure !== undefined ? refusalError(change.failure, t) : undefined;
        if (failure?.title) showToast(failure.title, 'error', CHAT_TOAST_MS);
        setState((current) => ({ ...current, messages: applyStatus(current.messages, id, change.status, failure) }));
      }),
    [showToast, t],
  );

  const loadOlder = useCallback(async () => {
    const oldest = state.messages[0];
    if (!state.hasOlder || state.loadingOlder || !oldest) return;
    setState((current) => ({ ...current, loadingOlder: true }));
    try {
      const page = await getMessages(key, oldest);
      setState((current) => ({
        ...current,
        messages: mergeMessages(current.messages, renameConfirmed(page.messages, confirmed.current)),
        hasOlder: page.has_more_older,
        loadingOlder: false,
      }));
    } catch {
      setState((current) => ({ ...current, loadingOlder: false }));
    }
  }, [key, state.messages, state.hasOlder, state.loadingOlder]);

  useRealtimeEvents((event) => {
    if (event.event === 'reset') void loadLatest();
    else if (event.event === 'new_message' && customerKey(event.data) === key) {
      const message = renameConfirmed([event.data.message], confirmed.current);
      setState((current) => ({ ...current, messages: mergeMessages(current.messages, message) }));
    } else if (event.event === 'message_updated' && customerKey(event.data) === key) {
      setState((current) => ({ ...current, messages: replaceMessage(current.messages, event.data.message) }));
    } else if (event.event === 'message_status_update' && customerKey(event.data) === key) {
      const update = event.data;
      if (update.client_message_id) {
        queued.current.delete(update.client_message_id);
        confirmed.current.set(update.client_message_id, update.message_id);
      }
      setState((current) => ({ ...current, messages: applyStatusEvent(current.messages, update) }));
    }
  });

  /** Every message goes through the outbox; offline it waits there (pending, with the clock). */
  const send = useCallback(
    async ({ text, files, replyTo }: Draft) => {
      // After an offline reload the config is unknown, but the conversation id starts with it.
      const businessNumber = phoneNumberId ?? (conversationId.endsWith(`_${key}`) ? conversationId.slice(0, -key.length - 1) : null);
      if (!businessNumber) throw new Error('The business phone number is not known yet');
      const account = currentAccount();
      if (!account) throw new Error('Not signed in');
      const trimmed = text.trim();
      const base = { account, to: key, phoneNumber: key, phoneNumberId: businessNumber, conversation_id: conversationId, senderName: 'You', retryCount: 0 };
      const online = isOnline();
      const status = online ? 'sending' : 'pending';
      // Audio carries no caption in the Cloud API: with it, the text goes as a message of its own.
      const textAlone = !files[0] || (trimmed !== '' && typeOfFile(files[0]) === 'audio');
      const parts: PendingMessage[] = (textAlone ? [...files, null] : files).map((file, index) => ({
        ...base,
        tempMessageId: `tmp-${crypto.randomUUID()}`,
        originalTimestamp: nextTimestamp(),
        status: 'pending',
        ...(replyTo && index === 0 ? { context: contextOf(replyTo) } : {}),
        ...(file
          ? { message_type: typeOfFile(file), file, filename: file.name, caption: index === 0 && !textAlone && trimmed ? trimmed : undefined }
          : { message_type: 'text', text: trimmed }),
      }));
      parts.forEach((part) => queued.current.add(part.tempMessageId));
      setState((current) => ({
        ...current,
        messages: mergeMessages(current.messages, parts.map((part) => ({ ...displayed(part), status }))),
      }));
      for (const part of parts) await enqueue(part);
      if (online) {
        await syncFromPage();
      } else {
        showToast(t('offline_message_will_send'), 'info', CHAT_TOAST_MS);
        await requestBackgroundSync().catch((error: unknown) => console.warn('background sync not registered', error));
      }
    },
    [key, phoneNumberId, conversationId, showToast, t],
  );

  /** Manual retry of a failed message; the same client id makes the server ignore a duplicate. */
  const retry = useCallback(async (messageId: string) => {
    if (!(await retryMessage(messageId))) throw new Error(t('cannotRetryMessage'));
    await syncFromPage();
    if (queued.current.has(messageId)) throw new Error(t('retryFailed'));
  }, [t]);

  /** The refused messages go again with take_over, which makes the sender their holder. */
  const takeOver = useCallback(async () => {
    const ids = refusal?.messageIds ?? [];
    setRefusal(null);
    for (const id of ids) await retryMessage(id, true);
    await syncFromPage();
  }, [refusal]);

  /** The refused messages stay failed; each can still be retried by hand. */
  const dismissRefusal = useCallback(() => setRefusal(null), []);

  /** A message the server answered directly (a note). */
  const add = useCallback((message: Message) => {
    setState((current) => ({ ...current, messages: mergeMessages(current.messages, [message]) }));
  }, []);

  return { ...state, loadOlder, send, retry, refusal, takeOver, dismissRefusal, add };
}
