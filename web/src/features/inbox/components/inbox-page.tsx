import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import type { Conversation } from '../../../lib/api/types';
import { useLabels } from '../../../lib/labels/use-labels';
import { useRealtimeEvents } from '../../../lib/realtime/realtime-context';
import { ACTION_TOAST_MS, CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { markAsRead } from '../api/inbox-api';
import type { SearchResult } from '../api/search-api';
import { customerKey, keyOfConversation } from '../../../lib/customer/customer-key';
import { conversationIdOf, placeholderRow } from '../conversation-id';
import { deletedHere } from '../deleted-here';
import type { ListFilter } from '../api/team-api';
import { useConversations } from '../hooks/use-conversations';
import { useTabCounts } from '../hooks/use-tab-counts';
import { usePhoneNumberId } from '../hooks/use-config';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import type { MessageFocus } from '../hooks/use-message-focus';
import { useMessageSearch } from '../hooks/use-message-search';
import { searchedText } from '../api/search-api';
import { useSmallScreen } from '../hooks/use-small-screen';
import { withLabelDefinitions, withRename, withTeamUpdate, type TeamChange } from '../list-view';
import { ChatPane } from './chat-pane';
import { Sidebar } from './sidebar';
import '../team.css';

const SEARCH_DEBOUNCE_MS = 350;

/** The main screen: chat list and chat pane side by side, or one at a time below 768 px. */
export function InboxPage() {
  const { t } = useTranslation();
  const showToast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [query, setQuery] = useState('');
  const searched = searchedText(query);
  const search = useDebouncedValue(searched.text, SEARCH_DEBOUNCE_MS);
  const [filter, setFilter] = useState<ListFilter>({ assignee: 'all', status: 'open' });
  const list = useConversations(search, filter);
  const messageSearch = useMessageSearch(search);
  const [focus, setFocus] = useState<MessageFocus | null>(null);
  const counts = useTabCounts(filter.status, filter.label);
  const { labels } = useLabels();
  // A deleted label no longer filters the list.
  const filteredLabelGone = !!filter.label && !labels.some((label) => label.id === filter.label);
  useEffect(() => {
    if (filteredLabelGone) setFilter((current) => ({ ...current, label: undefined }));
  }, [filteredLabelGone]);
  const phoneNumberId = usePhoneNumberId();
  const small = useSmallScreen();
  const [selected, setSelected] = useState<Conversation | null>(null);
  const selectedKey = selected && customerKey(selected);
  const listedRow = selectedKey === null ? undefined : list.items.find((row) => customerKey(row) === selectedKey);
  // The open conversation remembers its latest row, so it keeps its name and details once a
  // status or holder change takes the row out of the list's tab.
  useEffect(() => {
    if (listedRow) setSelected(listedRow);
  }, [listedRow]);
  const selectedRow = listedRow ?? selected;
  /** The conversation Back left on a small screen: its row takes the focus when the list is back. */
  const [left, setLeft] = useState<string | null>(null);

  // A conversation_id deep link selects that conversation, then the query is cleared.
  const linked = params.get('conversation_id');
  useEffect(() => {
    if (!linked) return;
    setSelected(placeholderRow(keyOfConversation(linked), linked));
    navigate('/whatsapp', { replace: true });
  }, [linked, navigate]);

  /** The open conversation keeps its holder and status even when they take it out of the list's tab. */
  const { markRead, applyTeamChange } = list;
  const teamChanged = useCallback(
    (change: TeamChange) => {
      applyTeamChange(change);
      setSelected((current) => (current && customerKey(current) === customerKey(change) ? withTeamUpdate(current, change) : current));
    },
    [applyTeamChange],
  );

  /**
   * The open conversation's row as its history names it: a link or a search hit opens a
   * conversation the list may not hold, whose name, status, holder, labels and snooze only the
   * server knows. Live events then change it as they change a listed row. A BSUID that WhatsApp
   * has since joined to a phone answers with the phone's row: the conversation then goes by the
   * phone's key (its list row, channel and events), as after a live join.
   */
  const rowRead = useCallback((row: Conversation, readBy: string) => {
    setSelected((current) => (current && customerKey(current) === readBy ? row : current));
  }, []);

  useRealtimeEvents((event) => {
    if (event.event === 'system_notification' && event.data.type === 'payment_error') {
      showToast(t('paymentError'), 'error', CHAT_TOAST_MS);
    } else if (event.event === 'conversation_updated') {
      const change = event.data;
      setSelected((current) => (current && customerKey(current) === customerKey(change) ? withTeamUpdate(current, change) : current));
    } else if (event.event === 'labels_changed') {
      const { labels: now } = event.data;
      setSelected((current) => current && withLabelDefinitions(current, now));
    } else if (event.event === 'contact_deleted' && customerKey(event.data) === selectedKey) {
      // Deleted by someone of the team (or from another tab): the conversation is gone. The tab
      // that deleted it has said so in its own toast (the event may come before its answer).
      setSelected(null);
      if (!deletedHere(selectedKey)) showToast(t('contact.deletedLive'), 'info', CHAT_TOAST_MS);
    } else if (event.event === 'mention') {
      const { conversation_id, note, by } = event.data;
      // The toast's button opens the conversation at the note.
      const run = () => open(conversation_id, null, note.message_id);
      showToast(t('team.mentioned', { name: by.name }), 'info', ACTION_TOAST_MS, { label: t('team.openMention'), run });
    } else if (event.event === 'notification' && customerKey(event.data) === selectedKey && event.data.unread_count > 0) {
      // The open conversation is being read as messages arrive.
      markAsRead(selectedKey).catch((error: unknown) => console.warn('mark-as-read failed', error));
      markRead(selectedKey);
    } else if (event.event === 'new_contact' && event.data.renamed) {
      // The open conversation takes the new name even when its row is not in the list.
      const contact = event.data;
      setSelected((current) => current && withRename(current, contact));
    } else if (event.event === 'new_contact' && selected && event.data.previous_phone_number === selectedKey) {
      // The open customer is now known under another key (their phone): the conversation follows.
      const { phone_number, user_id, username, conversation_id, name } = event.data;
      setSelected({ ...selected, phone_number, user_id, username, conversation_id, name: name ?? selected.name });
    }
  });

  /**
   * After an add or edit the list reloads and the saved contact is the open one, under its saved
   * name. An open conversation keeps its row, which the list may not hold.
   */
  const openSaved = (key: string, name: string) => {
    list.reload();
    setSelected((current) =>
      current && customerKey(current) === key
        ? { ...current, name }
        : { ...placeholderRow(key, phoneNumberId ? conversationIdOf(phoneNumberId, key) : ''), name },
    );
  };

  /** Opens a conversation by its id (a row the list holds, else one its history describes),
   * scrolled to `messageId` when given. */
  function open(conversationId: string, name: string | null, messageId?: string | null) {
    const key = keyOfConversation(conversationId);
    const row = list.items.find((item) => customerKey(item) === key);
    setSelected(row ?? { ...placeholderRow(key, conversationId), name });
    if (messageId) setFocus({ key, messageId });
  }

  /** A message hit opens its conversation, scrolled to the message. */
  const openMessage = (hit: SearchResult) => open(hit.conversation_id, hit.name || null, hit.message_id);

  const showList = !small || !selectedRow;
  const showPane = !small || selectedRow;
  return (
    <div className={`inbox${small ? ' small' : ''}`}>
      {showList && (
        <Sidebar
          list={list}
          filter={filter}
          counts={counts}
          labels={labels}
          onFilterChange={setFilter}
          query={query}
          onQueryChange={setQuery}
          searchCut={searched.cut}
          selectedKey={selectedKey}
          focusKey={left}
          onSelect={setSelected}
          onContactSaved={openSaved}
          messageSearch={messageSearch}
          onOpenMessage={openMessage}
        />
      )}
      {showPane &&
        (selectedRow ? (
          <ChatPane
            key={selectedKey}
            conversation={selectedRow}
            phoneNumberId={phoneNumberId}
            small={small}
            focus={focus?.key === selectedKey ? focus : null}
            onBack={() => {
              setLeft(selectedKey);
              setSelected(null);
            }}
            onRead={markRead}
            onContactSaved={openSaved}
            onTeamChange={teamChanged}
            onRowRead={rowRead}
            onContactDeleted={() => {
              setSelected(null);
              list.reload();
            }}
          />
        ) : (
          <section className="welcome">
            <h2>{t('chat.welcomeTitle')}</h2>
            <p>{t('chat.welcomeBody')}</p>
          </section>
        ))}
    </div>
  );
}
