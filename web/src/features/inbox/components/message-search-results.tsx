import { useTranslation } from 'react-i18next';
import { formatListTime } from '../../../lib/format/dates';
import type { SearchResult } from '../api/search-api';
import type { MessageSearch } from '../hooks/use-message-search';
import { snippetParts } from '../snippet';
import '../search.css';

interface Props {
  search: MessageSearch;
  onOpen: (hit: SearchResult) => void;
}

/** The chat list's "Messages" section while searching: message hits from the whole history. */
export function MessageSearchResults({ search, onOpen }: Props) {
  const { t } = useTranslation();
  return (
    <section className="message-search" aria-label={t('messageSearch.title')}>
      <h2 className="message-search-title">{t('messageSearch.title')}</h2>
      {search.loading && search.results.length === 0 ? (
        <p className="message-search-note" role="status">{t('loading')}</p>
      ) : search.failed ? (
        <p className="message-search-note">{t('messageSearch.failed')}</p>
      ) : search.results.length === 0 ? (
        <p className="message-search-note">{t('messageSearch.none')}</p>
      ) : (
        <ul className="message-search-list">
          {search.results.map((hit) => (
            <li key={hit.message_id}>
              <button type="button" className="message-search-hit" onClick={() => onOpen(hit)}>
                <span className="message-search-head">
                  <bdi className="message-search-name">{hit.name || hit.phone_number}</bdi>
                  <time dateTime={hit.timestamp}>{formatListTime(hit.timestamp)}</time>
                </span>
                <span className="message-search-snippet" dir="auto">
                  {snippetParts(hit.snippet).map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : part.text))}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
