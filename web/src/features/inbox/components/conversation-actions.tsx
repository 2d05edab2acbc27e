import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DropdownMenu } from '../../../components/dropdown-menu';
import { Icon } from '../../../components/icon';
import { listAgents, type Agent } from '../../../lib/api/agents';
import { heldBy } from '../../../lib/api/assignment-conflict';
import { detailOf } from '../../../lib/api/client';
import { getStoredRole } from '../../../lib/api/session-store';
import { currentUserId } from '../../../lib/api/token-claims';
import type { Conversation, ConversationStatus } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { setAssignment, setStatus } from '../api/team-api';
import { snoozeEnd } from '../snooze';
import { SnoozeModal } from './snooze-modal';

interface Props {
  conversation: Conversation;
  /** The conversation as the server answered after a change. */
  onChanged: (row: Conversation) => void;
}

/** The owner assigns anyone; an agent takes or releases. Everyone resolves, reopens and snoozes. */
export function ConversationActions({ conversation, onChanged }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [agents, setAgents] = useState<Agent[]>([]);
  const [customSnooze, setCustomSnooze] = useState(false);
  const [busy, setBusy] = useState(false);
  const isOwner = getStoredRole() === 'admin';
  const me = currentUserId();
  const key = customerKey(conversation);
  const assignee = conversation.assignee ?? null;
  const status = conversation.status ?? 'open';

  useEffect(() => {
    if (!isOwner) return;
    listAgents()
      .then(setAgents)
      .catch((error: unknown) => console.warn('agents not loaded', error));
  }, [isOwner]);

  const run = async (change: () => Promise<Conversation>) => {
    setBusy(true);
    try {
      // The answer is the row; who it is known as here travels with it, so it matches by key.
      const { phone_number, user_id, conversation_id } = conversation;
      onChanged({ ...(await change()), phone_number, user_id, conversation_id });
    } catch (error) {
      const holder = heldBy(error);
      showToast(holder ? t('team.heldByOther', { name: holder.name }) : detailOf(error, t('team.actionFailed')), 'error', CHAT_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };
  const changeStatus = (next: ConversationStatus, until?: Date) => void run(() => setStatus(key, next, until?.toISOString()));

  const choices = [
    ...(me ? [{ id: me, name: t('team.me') }] : []),
    ...agents.filter((agent) => agent._id !== me).map((agent) => ({ id: agent._id, name: `${agent.firstName} ${agent.lastName}`.trim() || agent.username })),
  ];
  if (assignee && !choices.some((choice) => choice.id === assignee.id)) choices.push(assignee);

  return (
    <div className="conversation-actions" role="group" aria-label={t('team.actions')}>
      {isOwner ? (
        <select
          aria-label={t('team.assignee')}
          value={assignee?.id ?? ''}
          disabled={busy}
          onChange={(event) => void run(() => setAssignment(key, event.target.value || null))}
        >
          <option value="">{t('team.nobody')}</option>
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
      ) : assignee && assignee.id === me ? (
        <button type="button" disabled={busy} onClick={() => void run(() => setAssignment(key, null))}>
          {t('team.release')}
        </button>
      ) : (
        <button type="button" disabled={busy || !me} onClick={() => void run(() => setAssignment(key, me, true))}>
          {t('team.take')}
        </button>
      )}
      {status === 'resolved' ? (
        <button type="button" disabled={busy} onClick={() => changeStatus('open')}>
          {t('team.reopen')}
        </button>
      ) : (
        <button type="button" disabled={busy} onClick={() => changeStatus('resolved')}>
          {t('team.resolve')}
        </button>
      )}
      <DropdownMenu
        label={t('team.snooze')}
        icon={<Icon name="clock" />}
        align="end"
        items={[
          { label: t('team.snoozeHour'), onSelect: () => changeStatus('snoozed', snoozeEnd('hour')) },
          { label: t('team.snoozeTomorrow'), onSelect: () => changeStatus('snoozed', snoozeEnd('tomorrow')) },
          { label: t('team.snoozeNextWeek'), onSelect: () => changeStatus('snoozed', snoozeEnd('nextWeek')) },
          { label: t('team.snoozeCustom'), onSelect: () => setCustomSnooze(true) },
        ]}
      />
      {customSnooze && (
        <SnoozeModal
          onClose={() => setCustomSnooze(false)}
          onSnooze={(until) => {
            setCustomSnooze(false);
            changeStatus('snoozed', until);
          }}
        />
      )}
    </div>
  );
}
