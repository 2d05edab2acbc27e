// Which conversations the chat list shows: the tab (mine, unassigned, all), the status and label
// chosen, and whether a search narrows it. Live events keep rows in or out of the view by these rules.
import type { Conversation, Label } from '../../lib/api/types';
import { customerKey, type CustomerIdentity } from '../../lib/customer/customer-key';
import type { ListFilter } from './api/team-api';

export interface ListView {
  filter: ListFilter;
  searching: boolean;
  /** The signed-in user's id, which the Mine tab is about. */
  me: string | null;
}

type TeamFields = Pick<Conversation, 'status' | 'assignee' | 'labels'>;

/** Whether a conversation with these fields belongs in the view (a row without status is open). */
export function inView(row: TeamFields, { filter, me }: ListView): boolean {
  const status = row.status ?? 'open';
  if (filter.status !== 'all' && status !== filter.status) return false;
  if (filter.label && !row.labels?.some((label) => label.id === filter.label)) return false;
  if (filter.assignee === 'me') return !!row.assignee && row.assignee.id === me;
  if (filter.assignee === 'unassigned') return !row.assignee;
  return true;
}

/** A conversation first heard of through a message is open and unassigned until told otherwise. */
export function takesNewConversations(view: ListView): boolean {
  return !view.searching && inView({ status: 'open', assignee: null, labels: [] }, view);
}

/**
 * A new holder, status or set of labels: from a `conversation_updated` event or the row a change
 * answered, with who it is about (matched by customer key).
 */
export type TeamChange = CustomerIdentity & Pick<Conversation, 'status' | 'snoozed_until' | 'assignee' | 'labels'>;

/** The row with the holder, status and labels of a change (labels it does not name are kept). */
export function withTeamUpdate(row: Conversation, change: TeamChange): Conversation {
  return {
    ...row,
    status: change.status,
    snoozed_until: change.snoozed_until ?? null,
    assignee: change.assignee ?? null,
    labels: change.labels ?? row.labels,
  };
}

/** The row's labels as the business now has them: renamed and recoloured, deleted ones gone. */
export function withLabelDefinitions(row: Conversation, labels: Label[]): Conversation {
  if (!row.labels?.length) return row;
  const byId = new Map(labels.map((label) => [label.id, label]));
  return { ...row, labels: row.labels.flatMap((label) => byId.get(label.id) ?? []) };
}

/**
 * The row with its customer's new name from a `new_contact` marked `renamed` (an agent's edit, an
 * import, the app's address book, or a delivery's profile), and the BSUID and username it names
 * (one it leaves out is kept). The rows of other customers are unchanged.
 */
export function withRename(row: Conversation, contact: CustomerIdentity & Pick<Conversation, 'name' | 'username'>): Conversation {
  if (customerKey(row) !== customerKey(contact)) return row;
  return {
    ...row,
    name: contact.name ?? row.name,
    user_id: contact.user_id ?? row.user_id,
    username: contact.username ?? row.username,
  };
}
