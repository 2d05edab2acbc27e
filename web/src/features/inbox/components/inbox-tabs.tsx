import { useTranslation } from 'react-i18next';
import type { AssigneeFilter, ListFilter, StatusFilter, TabCounts } from '../api/team-api';

const TABS: { filter: AssigneeFilter; count: keyof TabCounts }[] = [
  { filter: 'me', count: 'mine' },
  { filter: 'unassigned', count: 'unassigned' },
  { filter: 'all', count: 'all' },
];

const STATUSES: StatusFilter[] = ['open', 'pending', 'resolved', 'snoozed', 'all'];

interface Props {
  filter: ListFilter;
  counts: TabCounts | null;
  onChange: (filter: ListFilter) => void;
}

/** Mine / Unassigned / All with their counts, and the status the list shows. */
export function InboxTabs({ filter, counts, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <div className="inbox-tabs">
      <div role="tablist" aria-label={t('team.tabs')}>
        {TABS.map((tab) => (
          <button
            key={tab.filter}
            type="button"
            role="tab"
            aria-selected={filter.assignee === tab.filter}
            className={filter.assignee === tab.filter ? 'tab selected' : 'tab'}
            onClick={() => onChange({ ...filter, assignee: tab.filter })}
          >
            {t(`team.tab.${tab.filter}`)}
            {counts && <span className="tab-count"> {counts[tab.count]}</span>}
          </button>
        ))}
      </div>
      <select aria-label={t('team.statusFilter')} value={filter.status} onChange={(event) => onChange({ ...filter, status: event.target.value as StatusFilter })}>
        {STATUSES.map((status) => (
          <option key={status} value={status}>
            {t(`team.status.${status}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
