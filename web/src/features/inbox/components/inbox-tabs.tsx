import { useTranslation } from 'react-i18next';
import type { Label } from '../../../lib/api/types';
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
  /** The business's labels, to filter by one. */
  labels: Label[];
  onChange: (filter: ListFilter) => void;
}

/** Mine / Unassigned / All with their counts, and the status and label the list shows. */
export function InboxTabs({ filter, counts, labels, onChange }: Props) {
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
      {(labels.length > 0 || filter.label) && (
        <select aria-label={t('labels.filter')} value={filter.label ?? ''} onChange={(event) => onChange({ ...filter, label: event.target.value || undefined })}>
          <option value="">{t('labels.any')}</option>
          {labels.map((label) => (
            <option key={label.id} value={label.id}>
              {label.name}
            </option>
          ))}
        </select>
      )}
    </div>
  );
}
