import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Activity, Message } from '../../../lib/api/types';
import { formatDateTime, formatTime } from '../../../lib/format/dates';

/** The sentence an activity entry reads as. */
export function activityText(t: TFunction, activity: Activity): string {
  const by = activity.by?.name ?? t('team.system');
  switch (activity.action) {
    case 'assigned':
      return activity.assignee && activity.assignee.id !== activity.by?.id
        ? t('team.activity.assigned', { by, assignee: activity.assignee.name })
        : t('team.activity.took', { by });
    case 'unassigned':
      return activity.reason === 'claim_timeout' ? t('team.activity.claimTimeout') : t('team.activity.unassigned', { by });
    case 'status': {
      const time = activity.snoozed_until ? formatDateTime(activity.snoozed_until) : '';
      return t(`team.activity.status_${activity.status ?? 'open'}`, { by, time });
    }
  }
}

/** A change of holder or status, as a centred grey line in the conversation. */
export function ActivityLine({ message }: { message: Message }) {
  const { t } = useTranslation();
  const activity = message.content.activity;
  return (
    <p className="activity-line" data-message-id={message.message_id}>
      {activity ? activityText(t, activity) : message.content.text}{' '}
      <time dateTime={message.timestamp}>{formatTime(message.timestamp)}</time>
    </p>
  );
}
