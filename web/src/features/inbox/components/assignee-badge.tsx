import { useTranslation } from 'react-i18next';
import type { Assignee } from '../../../lib/api/types';

/** Up to two initials: the first letters of the first and last words of a name. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.charAt(0) ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.charAt(0) ?? '') : '';
  return (first + last).toUpperCase() || '?';
}

/** The holder of a conversation as a small round badge of initials. */
export function AssigneeBadge({ assignee }: { assignee: Assignee }) {
  const { t } = useTranslation();
  const label = t('team.assignedTo', { name: assignee.name });
  return (
    <span className="assignee-badge" role="img" aria-label={label} title={label}>
      {initialsOf(assignee.name)}
    </span>
  );
}
