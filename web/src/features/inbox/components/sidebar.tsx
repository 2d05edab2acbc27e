import { Icon } from '../../../components/icon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ThemeToggle } from '../../../components/theme-toggle';
import type { Conversation, Label } from '../../../lib/api/types';
import { useEnableNotifications } from '../../../lib/push/use-push-subscription';
import { useRealtime } from '../../../lib/realtime/realtime-context';
import { SEARCH_MAX_WORDS, type SearchResult } from '../api/search-api';
import type { ListFilter, TabCounts } from '../api/team-api';
import type { useConversations } from '../hooks/use-conversations';
import type { MessageSearch } from '../hooks/use-message-search';
import { ContactModal } from './contact-modal';
import { ConversationList } from './conversation-list';
import { InboxTabs } from './inbox-tabs';
import { MessageSearchResults } from './message-search-results';
import { SettingsMenu } from './settings-menu';

interface Props {
  list: ReturnType<typeof useConversations>;
  filter: ListFilter;
  counts: TabCounts | null;
  labels: Label[];
  onFilterChange: (filter: ListFilter) => void;
  query: string;
  onQueryChange: (query: string) => void;
  /** Whether the query holds more words than a search looks for (only the first are searched). */
  searchCut: boolean;
  selectedKey: string | null;
  /** A row to give the focus to once it shows (the conversation Back left). */
  focusKey?: string | null;
  onSelect: (conversation: Conversation) => void;
  onContactSaved: (key: string, name: string) => void;
  /** Message hits of the current search; shown under the contacts while searching. */
  messageSearch: MessageSearch;
  onOpenMessage: (hit: SearchResult) => void;
}

export function Sidebar(props: Props) {
  const { list, filter, counts, labels, onFilterChange, query, onQueryChange, searchCut, selectedKey, onSelect, onContactSaved, messageSearch, onOpenMessage } = props;
  const { t } = useTranslation();
  const { state } = useRealtime();
  const [adding, setAdding] = useState(false);
  const enableNotifications = useEnableNotifications();
  return (
    <aside className="sidebar" aria-label={t('inbox.chats')}>
      <header className="sidebar-header">
        <SettingsMenu />
        <h1 className="brand">Parley</h1>
        <span className={`live-dot live-${state}`} role="img" aria-label={t(`realtime.${state}`)} title={t(`realtime.${state}`)} />
        <ThemeToggle />
        <button type="button" className="icon-button" aria-label={t('inbox.addContact')} onClick={() => setAdding(true)}>
          <Icon name="plus" />
        </button>
        <button type="button" className="icon-button" aria-label={t('inbox.refresh')} onClick={list.reload}>
          ⟳
        </button>
        <button
          type="button"
          className="bell icon-button"
          aria-label={t('inbox.unreadTotal', { count: list.totalUnread })}
          title={t('native.enableNotifications', { count: list.totalUnread })}
          onClick={() => void enableNotifications()}
        >
          <Icon name="bell" />
          {list.totalUnread > 0 && <span className="badge">{list.totalUnread}</span>}
        </button>
      </header>
      <input
        type="search"
        className="search"
        aria-label={t('inbox.search')}
        placeholder={t('inbox.search')}
        value={query}
        onChange={(event) => onQueryChange(event.target.value)}
      />
      {searchCut && (
        <p className="muted search-cut" role="status">
          {t('inbox.searchWordsCut', { max: SEARCH_MAX_WORDS })}
        </p>
      )}
      <InboxTabs filter={filter} counts={counts} labels={labels} onChange={onFilterChange} />
      <ConversationList
        items={list.items}
        loading={list.loading}
        loadingMore={list.loadingMore}
        hasMore={list.hasMore}
        failed={list.failed}
        query={query}
        selectedKey={selectedKey}
        focusKey={props.focusKey}
        onSelect={onSelect}
        onLoadMore={list.loadMore}
        onClearSearch={() => onQueryChange('')}
      />
      {query.trim() && messageSearch.active && <MessageSearchResults search={messageSearch} onOpen={onOpenMessage} />}
      {adding && (
        <ContactModal
          onClose={() => setAdding(false)}
          onSaved={(phone, name) => {
            setAdding(false);
            onContactSaved(phone, name);
          }}
        />
      )}
    </aside>
  );
}
