import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation, Message } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { isOnline, useConnectivityToasts } from '../../../lib/offline/connectivity';
import { saveConversations, savedConversations } from '../../../lib/offline/local-store';
import { usePushSubscription } from '../../../lib/push/use-push-subscription';
import { useRealtime, useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import type { NewContactEvent, RealtimeEvent } from '../../../lib/realtime/events';
import { currentUserId } from '../../../lib/api/token-claims';
import { getConversations } from '../api/inbox-api';
import type { ListFilter } from '../api/team-api';
import { placeholderRow } from '../conversation-id';
import { customerWrote } from '../messages-state';
import { inView, takesNewConversations, withLabelDefinitions, withRename, withTeamUpdate, type ListView, type TeamChange } from '../list-view';

export interface ConversationsState {
  items: Conversation[];
  hasMore: boolean;
  /** The first page is loading (the skeleton shows). */
  loading: boolean;
  loadingMore: boolean;
  failed: boolean;
  totalUnread: number;
}

const INITIAL: ConversationsState = {
  items: [],
  hasMore: false,
  loading: true,
  loadingMore: false,
  failed: false,
  totalUnread: 0,
};

function moveToTop(items: Conversation[], key: string, update: (row: Conversation) => Conversation): Conversation[] {
  const row = items.find((item) => customerKey(item) === key);
  return row ? [update(row), ...items.filter((item) => item !== row)] : items;
}

function updateInPlace(items: Conversation[], key: string, update: (row: Conversation) => Conversation): Conversation[] {
  return items.map((item) => (customerKey(item) === key ? update(item) : item));
}

function newRow(key: string, conversationId: string, name: string | null): Conversation {
  return { ...placeholderRow(key, conversationId), name };
}

function hasKey(items: Conversation[], key: string): boolean {
  return items.some((item) => customerKey(item) === key);
}

/** What the list shows of a message: its text or caption, or that it was deleted. */
function previewOf(message: Message): Conversation['last_message_content'] {
  if (message.revoked_at || message.content.revoked) return { text: null, caption: null, revoked: true };
  return { text: message.content.text ?? null, caption: message.content.caption ?? null };
}

/**
 * A contact seen anew: a new row, or a known one renamed. With `previous_phone_number` the
 * customer was known under another key (a BSUID, then the phone): that row becomes this one,
 * with both rows' labels. One marked `renamed` (an agent's edit, an import or the app's address
 * book) changes only the name of a row the list holds, and adds none.
 */
function withContact(items: Conversation[], contact: NewContactEvent, takesNew: boolean): Conversation[] {
  if (contact.renamed) return items.map((item) => withRename(item, contact));
  const key = customerKey(contact);
  const identity = {
    phone_number: contact.phone_number,
    user_id: contact.user_id ?? null,
    username: contact.username ?? null,
    conversation_id: contact.conversation_id,
  };
  const previous = contact.previous_phone_number;
  const old = previous ? items.find((item) => customerKey(item) === previous) : undefined;
  if (old) {
    // Both keys may have a row (the phone wrote in before): one row stays, the more recent one.
    const current = items.find((item) => customerKey(item) === key);
    const base = current && (current.last_message_timestamp ?? '') > (old.last_message_timestamp ?? '') ? current : old;
    const rest = items.filter((item) => item !== old && item !== current);
    // The server keeps both rows' labels on the one it keeps.
    const labels = [...(old.labels ?? []), ...(current?.labels ?? [])].filter((label, i, all) => all.findIndex((l) => l.id === label.id) === i);
    return [{ ...base, ...identity, name: contact.name ?? base.name, labels }, ...rest];
  }
  if (hasKey(items, key)) {
    return items.map((item) => (customerKey(item) === key ? { ...item, ...identity, name: contact.name ?? item.name } : item));
  }
  return takesNew ? [{ ...newRow(key, contact.conversation_id, contact.name), ...identity }, ...items] : items;
}

/** A row's new holder or status; the row leaves the list when that takes it out of the view. */
function applyTeamChange(state: ConversationsState, change: TeamChange, view: ListView): ConversationsState {
  const row = state.items.find((item) => customerKey(item) === customerKey(change));
  if (!row) return state;
  const updated = withTeamUpdate(row, change);
  const items = inView(updated, view) ? state.items.map((item) => (item === row ? updated : item)) : state.items.filter((item) => item !== row);
  return { ...state, items };
}

/**
 * Applies a live event to the list. Rows unknown to a searched list are left to the next search;
 * a row whose assignment or status takes it out of the view leaves the list.
 */
export function applyListEvent(state: ConversationsState, event: RealtimeEvent, view: ListView): ConversationsState {
  switch (event.event) {
    case 'notification': {
      const data = event.data;
      const key = customerKey(data);
      // Only a message (it has a time) brings in a conversation the list does not hold: a read
      // mark or a deleted unread message is of one opened from elsewhere (a link, a search hit)
      // or kept out by its status.
      const message = Boolean(data.last_message_timestamp);
      const arrives = message && data.unread_count > 0 && !hasKey(state.items, key) && takesNewConversations(view);
      const items = arrives ? [newRow(key, data.conversation_id, data.name), ...state.items] : state.items;
      // A message moves the row up; a count that only dropped (a read mark, a deleted unread
      // message: no message time) leaves it where it stands, so no row jumps to the top.
      const place = message ? moveToTop : updateInPlace;
      return {
        ...state,
        totalUnread: data.total_unread,
        items: place(items, key, (row) => ({
          ...row,
          name: data.name ?? row.name,
          unread_count: data.unread_count,
          last_message_timestamp: data.last_message_timestamp ?? row.last_message_timestamp,
          last_message_content: typeof data.preview === 'string' ? { text: data.preview } : row.last_message_content,
        })),
      };
    }
    case 'new_message': {
      const { message } = event.data;
      // Notes and activity are the team's: they neither reorder the list nor show as its preview.
      if (message.direction === 'internal') return state;
      return {
        ...state,
        items: moveToTop(state.items, customerKey(event.data), (row) => ({
          ...row,
          last_message_timestamp: message.timestamp,
          last_message_content: previewOf(message),
          last_incoming_timestamp: customerWrote(message) ? message.timestamp : row.last_incoming_timestamp,
        })),
      };
    }
    case 'message_updated': {
      // Only the newest message is previewed; an edit or delete of an older one changes nothing here.
      const { message } = event.data;
      const key = customerKey(event.data);
      return {
        ...state,
        items: state.items.map((row) =>
          customerKey(row) === key && row.last_message_timestamp === message.timestamp ? { ...row, last_message_content: previewOf(message) } : row,
        ),
      };
    }
    case 'new_contact':
      return { ...state, items: withContact(state.items, event.data, takesNewConversations(view)) };
    case 'contact_deleted': {
      const key = customerKey(event.data);
      return { ...state, totalUnread: event.data.total_unread, items: state.items.filter((row) => customerKey(row) !== key) };
    }
    case 'conversation_updated':
      return applyTeamChange(state, event.data, view);
    case 'labels_changed': {
      const items = state.items.map((row) => withLabelDefinitions(row, event.data.labels));
      return { ...state, items: items.filter((row) => inView(row, view)) };
    }
    default:
      return state;
  }
}

/**
 * The list once its first page arrives. The list is emptied when the page is asked for, so the
 * rows it holds now came from live events meanwhile; those the page does not know stay on top
 * (the page may have been read before their conversation existed).
 */
export function withFirstPage(live: Conversation[], page: Conversation[]): Conversation[] {
  return [...live.filter((row) => !hasKey(page, customerKey(row))), ...page];
}

/**
 * The list with a further page after it, less the rows it already holds (a live event may have
 * moved one up). The keys are gathered once: asking each new row of the page to search the whole
 * list made every page's cost grow with the list.
 */
export function withNextPage(items: Conversation[], page: Conversation[]): Conversation[] {
  const known = new Set(items.map(customerKey));
  return [...items, ...page.filter((row) => !known.has(customerKey(row)))];
}

/**
 * The chat list: pages of 20 for the current search and tab, kept live by the notifications
 * channel; a conversation that enters the tab from elsewhere brings a quiet reload of the first page.
 * Loaded rows are saved; when the server cannot be reached the saved list shows. The inbox is
 * the signed-in home, so it also carries the connectivity toasts and the push subscription.
 */
export function useConversations(search: string, filter: ListFilter) {
  const [state, setState] = useState<ConversationsState>(INITIAL);
  const page = useRef(0);
  const request = useRef<AbortController | null>(null);
  const { t } = useTranslation();
  const showToast = useToast();
  useConnectivityToasts(CHAT_TOAST_MS);
  usePushSubscription();

  const showSaved = useCallback(async () => {
    try {
      const items = await savedConversations(search);
      showToast(t(isOnline() ? 'failed_fetch_from_server' : 'offline_showing_saved_data'), 'info', CHAT_TOAST_MS);
      setState((current) => ({ ...current, items, loading: false, loadingMore: false, hasMore: false, failed: items.length === 0 }));
    } catch {
      showToast(t('failed_to_show_saved_users'), 'error', CHAT_TOAST_MS);
      setState((current) => ({ ...current, loading: false, loadingMore: false, hasMore: false, failed: true }));
    }
  }, [search, showToast, t]);
  // Read through a ref: a new `t` (the profile's language applied after sign-in) must not re-run
  // the load effect, which would abort the first page and ask for it again.
  const fallBackToSaved = useRef(showSaved);
  useEffect(() => {
    fallBackToSaved.current = showSaved;
  }, [showSaved]);

  const { assignee, status, label } = filter;
  const load = useCallback(
    async (next: number, quiet = false) => {
      request.current?.abort();
      const controller = new AbortController();
      request.current = controller;
      if (!quiet) setState((current) => (next === 1 ? { ...INITIAL, totalUnread: current.totalUnread } : { ...current, loadingMore: true }));
      try {
        const answer = await getConversations(next, search, { assignee, status, label }, controller.signal);
        page.current = next;
        void saveConversations(answer.users).catch((error: unknown) => console.warn('list not saved', error));
        setState((current) => ({
          items:
            next > 1
              ? withNextPage(current.items, answer.users)
              : quiet
                ? answer.users
                : withFirstPage(current.items, answer.users),
          hasMore: answer.has_more,
          loading: false,
          loadingMore: false,
          failed: false,
          totalUnread: answer.total_unread,
        }));
      } catch {
        if (controller.signal.aborted || quiet) return;
        // errors.load_users: paging stops; a first page falls back to the saved list.
        if (next === 1) await fallBackToSaved.current();
        else setState((current) => ({ ...current, loading: false, loadingMore: false, hasMore: false, failed: true }));
      }
    },
    [search, assignee, status, label],
  );

  const { ready } = useRealtime();
  useEffect(() => {
    if (!ready) return undefined;
    void load(1);
    return () => request.current?.abort();
  }, [load, ready]);

  const loadMore = useCallback(() => {
    if (state.hasMore && !state.loadingMore && !state.loading) void load(page.current + 1);
  }, [load, state.hasMore, state.loadingMore, state.loading]);

  const reload = useCallback(() => void load(1), [load]);

  const view = useCallback(
    (): ListView => ({ filter: { assignee, status, label }, searching: search !== '', me: currentUserId() }),
    [assignee, status, label, search],
  );

  /** A change this user made, applied before its event comes back. */
  const teamChange = useCallback((change: TeamChange) => setState((current) => applyTeamChange(current, change, view())), [view]);

  useRealtimeEvents((event) => {
    const current = view();
    // A shown list is refreshed in place; one still loading starts its first page again.
    if (event.event === 'reset') void load(1, !state.loading);
    else if (event.event === 'conversation_updated' && !hasKey(state.items, customerKey(event.data))) {
      if (!current.searching && inView(event.data, current)) void load(1, true);
    } else setState((previous) => applyListEvent(previous, event, current));
  });

  const markRead = useCallback((key: string) => {
    setState((current) => {
      const row = current.items.find((item) => customerKey(item) === key);
      if (!row?.unread_count) return current;
      return {
        ...current,
        totalUnread: Math.max(0, current.totalUnread - row.unread_count),
        items: current.items.map((item) => (item === row ? { ...item, unread_count: 0 } : item)),
      };
    });
  }, []);

  return { ...state, loadMore, reload, markRead, applyTeamChange: teamChange };
}
