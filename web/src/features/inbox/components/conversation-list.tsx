import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Conversation } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { ConversationRow } from './conversation-row';

const ROW_HEIGHT = 76;
const SKELETON_ROWS = 10;
/** Start the next page this many rows before the end. */
const PREFETCH_ROWS = 5;

interface Props {
  items: Conversation[];
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  failed: boolean;
  query: string;
  /** The open conversation's customer key. */
  selectedKey: string | null;
  /** A row to scroll to and give the focus to, once (the conversation Back left). */
  focusKey?: string | null;
  onSelect: (conversation: Conversation) => void;
  onLoadMore: () => void;
  onClearSearch: () => void;
}

/** The chat list, virtualized so that only visible rows exist in the page. */
export function ConversationList(props: Props) {
  const { t } = useTranslation();
  const { items, loading, loadingMore, hasMore, query, onLoadMore } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows[virtualRows.length - 1]?.index ?? -1;

  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= items.length - PREFETCH_ROWS) onLoadMore();
  }, [lastIndex, items.length, hasMore, loadingMore, onLoadMore]);

  // The row exists only once the virtualizer has placed it: scrolled to first, focused when drawn.
  const { focusKey } = props;
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (!focusKey || focused.current === focusKey) return;
    const row = scroller.current?.querySelector<HTMLElement>(`.conversation-row[data-key="${CSS.escape(focusKey)}"]`);
    if (row) {
      focused.current = focusKey;
      row.focus();
      return;
    }
    const index = items.findIndex((conversation) => customerKey(conversation) === focusKey);
    if (index >= 0) virtualizer.scrollToIndex(index);
  }, [focusKey, items, virtualRows, virtualizer]);

  if (loading) {
    return (
      <div className="conversation-list" aria-busy="true" aria-label={t('inbox.loadingChats')}>
        {Array.from({ length: SKELETON_ROWS }, (_, index) => (
          <div key={index} className="skeleton-row" data-testid="skeleton-row" />
        ))}
      </div>
    );
  }

  if (items.length === 0) {
    return (
      <div className="conversation-list empty">
        <p>{props.failed ? t('errors.load_users') : query ? t('inbox.noResults') : t('inbox.noChats')}</p>
        {query && (
          <button type="button" className="link-button" onClick={props.onClearSearch}>
            {t('inbox.clearSearch')}
          </button>
        )}
      </div>
    );
  }

  return (
    <div ref={scroller} className="conversation-list" role="list" aria-label={t('inbox.chats')}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualRows.map((row) => {
          const conversation = items[row.index];
          if (!conversation) return null;
          const key = customerKey(conversation);
          return (
            <div
              key={key}
              role="listitem"
              className="virtual-row"
              style={{ height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
            >
              <ConversationRow
                conversation={conversation}
                query={query}
                selected={key === props.selectedKey}
                onSelect={props.onSelect}
                t={t}
              />
            </div>
          );
        })}
      </div>
      {loadingMore && <div className="list-loading">{t('loading')}</div>}
    </div>
  );
}
