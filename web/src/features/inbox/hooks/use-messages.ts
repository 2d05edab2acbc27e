import { useCallback, useEffect, useRef, useState } from 'react';
import type { Message } from '../../../lib/api/types';
import { useFollow, useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { getMessages, sendMessage, type OutgoingMessage } from '../api/inbox-api';
import { applyStatus, applyStatusEvent, confirmSent, mergeMessages } from '../messages-state';

export interface MessagesState {
  messages: Message[];
  hasOlder: boolean;
  loading: boolean;
  loadingOlder: boolean;
  failed: boolean;
}

const EMPTY: MessagesState = { messages: [], hasOlder: false, loading: true, loadingOlder: false, failed: false };

/** What the composer hands over: text and/or files; the first file carries the text as caption. */
export interface Draft {
  text: string;
  files: File[];
}

type OutgoingType = OutgoingMessage['type'];

function typeOfFile(file: File): OutgoingType {
  const kind = file.type.split('/')[0];
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'document';
}

function tempId(): string {
  return `tmp-${crypto.randomUUID()}`;
}

function optimistic(outgoing: OutgoingMessage, conversationId: string): Message {
  const content =
    outgoing.type === 'text'
      ? { text: outgoing.text }
      : {
          caption: outgoing.text,
          [outgoing.type]: {
            media_url: outgoing.file ? URL.createObjectURL(outgoing.file) : undefined,
            mime_type: outgoing.file?.type,
            filename: outgoing.file?.name,
          },
        };
  return {
    message_id: outgoing.tempId,
    timestamp: new Date().toISOString(),
    status: 'sending',
    direction: 'outgoing',
    type: outgoing.type,
    content,
    conversation_id: conversationId,
  };
}

/** One conversation's messages (mount it per conversation, e.g. keyed by phone): the newest 30, older pages on demand, live events, sending. */
export function useMessages(phone: string, conversationId: string, phoneNumberId: string | null) {
  const [state, setState] = useState<MessagesState>(EMPTY);
  const outbox = useRef(new Map<string, OutgoingMessage>());
  useFollow(conversationId);

  const loadLatest = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const page = await getMessages(phone, undefined, signal);
        setState((current) => ({
          ...current,
          // Keep messages still being sent; the page replaces what the server knows.
          messages: mergeMessages(current.messages.filter((m) => outbox.current.has(m.message_id)), page.messages),
          hasOlder: page.has_more_older,
          loading: false,
          failed: false,
        }));
      } catch {
        if (!signal?.aborted) setState((current) => ({ ...current, loading: false, failed: true }));
      }
    },
    [phone],
  );

  useEffect(() => {
    const controller = new AbortController();
    void loadLatest(controller.signal);
    return () => controller.abort();
  }, [loadLatest]);

  const loadOlder = useCallback(async () => {
    const oldest = state.messages[0];
    if (!state.hasOlder || state.loadingOlder || !oldest) return;
    setState((current) => ({ ...current, loadingOlder: true }));
    try {
      const page = await getMessages(phone, oldest.timestamp);
      setState((current) => ({
        ...current,
        messages: mergeMessages(current.messages, page.messages),
        hasOlder: page.has_more_older,
        loadingOlder: false,
      }));
    } catch {
      setState((current) => ({ ...current, loadingOlder: false }));
    }
  }, [phone, state.messages, state.hasOlder, state.loadingOlder]);

  useRealtimeEvents((event) => {
    if (event.event === 'reset') void loadLatest();
    else if (event.event === 'new_message' && event.data.phone_number === phone) {
      setState((current) => ({ ...current, messages: mergeMessages(current.messages, [event.data.message]) }));
    } else if (event.event === 'message_status_update' && event.data.phone_number === phone) {
      const update = event.data;
      if (update.client_message_id) outbox.current.delete(update.client_message_id);
      setState((current) => ({ ...current, messages: applyStatusEvent(current.messages, update) }));
    }
  });

  const deliver = useCallback(async (outgoing: OutgoingMessage) => {
    try {
      const answer = await sendMessage(outgoing);
      outbox.current.delete(outgoing.tempId);
      const providerId = answer.response?.messages?.[0]?.id;
      setState((current) => ({ ...current, messages: confirmSent(current.messages, outgoing.tempId, providerId) }));
    } catch (error) {
      setState((current) => ({ ...current, messages: applyStatus(current.messages, outgoing.tempId, 'failed', String(error)) }));
      throw error;
    }
  }, []);

  const send = useCallback(
    async ({ text, files }: Draft) => {
      if (!phoneNumberId) throw new Error('The business phone number is not known yet');
      const trimmed = text.trim();
      const parts: OutgoingMessage[] = files.length
        ? files.map((file, index) => ({
            tempId: tempId(),
            phone,
            phoneNumberId,
            type: typeOfFile(file),
            file,
            text: index === 0 && trimmed ? trimmed : undefined,
          }))
        : [{ tempId: tempId(), phone, phoneNumberId, type: 'text', text: trimmed }];
      parts.forEach((part) => outbox.current.set(part.tempId, part));
      setState((current) => ({
        ...current,
        messages: mergeMessages(current.messages, parts.map((part) => optimistic(part, conversationId))),
      }));
      const results = await Promise.allSettled(parts.map(deliver));
      const failure = results.find((result) => result.status === 'rejected');
      if (failure) throw failure.reason;
    },
    [phone, phoneNumberId, conversationId, deliver],
  );

  /** Manual retry of a failed message; the same client id makes the server ignore a duplicate. */
  const retry = useCallback(
    async (messageId: string) => {
      const outgoing = outbox.current.get(messageId);
      if (!outgoing) throw new Error('cannotRetryMessage');
      setState((current) => ({ ...current, messages: applyStatus(current.messages, messageId, 'sending') }));
      await deliver(outgoing);
    },
    [deliver],
  );

  return { ...state, loadOlder, send, retry };
}
