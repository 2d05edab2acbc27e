// The team's calls on a conversation: its status, who holds it, its labels, its notes, and the
// tab counts.
import { apiRequest } from '../../../lib/api/client';
import type { Conversation, ConversationStatus, Message } from '../../../lib/api/types';

/** The tabs above the chat list. */
export type AssigneeFilter = 'me' | 'unassigned' | 'all';
export type StatusFilter = ConversationStatus | 'all';

export interface ListFilter {
  assignee: AssigneeFilter;
  status: StatusFilter;
  /** Only conversations carrying this label (absent or empty: any). */
  label?: string;
}

export interface TabCounts {
  mine: number;
  unassigned: number;
  all: number;
}

export function getCounts(status: StatusFilter, label: string | undefined, signal?: AbortSignal): Promise<TabCounts> {
  const query = new URLSearchParams({ status });
  if (label) query.set('label', label);
  return apiRequest(`/api/users/counts?${query}`, { signal });
}

/** Conversations are addressed by customer key: the phone, or the BSUID of a customer without one. */
function conversationPath(key: string, action: string): string {
  return `/api/conversation/${encodeURIComponent(key)}/${action}`;
}

export function setStatus(key: string, status: ConversationStatus, snoozedUntil?: string): Promise<Conversation> {
  const json = snoozedUntil ? { status, snoozed_until: snoozedUntil } : { status };
  return apiRequest(conversationPath(key, 'status'), { method: 'PATCH', json });
}

/** `claim` asks the server to refuse when someone else holds the conversation. */
export function setAssignment(key: string, assigneeId: string | null, claim = false): Promise<Conversation> {
  const json = claim ? { assignee_id: assigneeId, claim: true } : { assignee_id: assigneeId };
  return apiRequest(conversationPath(key, 'assignment'), { method: 'PATCH', json });
}

/** The labels the conversation carries, all at once; answers the row. */
export function setLabels(key: string, labelIds: string[]): Promise<Conversation> {
  return apiRequest(conversationPath(key, 'labels'), { method: 'PUT', json: { labels: labelIds } });
}

export function postNote(key: string, text: string): Promise<Message> {
  return apiRequest(conversationPath(key, 'notes'), { method: 'POST', json: { text } });
}

/** Someone of the business, as a note can mention them (`GET /api/team/members`). */
export interface TeamMember {
  id: string;
  username: string;
  /** First and last name. */
  name: string;
  /** `admin` for the owner, `agent` for the others. */
  role: string;
}

/** The owner and the agents; every member may read them. */
export function getTeamMembers(signal?: AbortSignal): Promise<TeamMember[]> {
  return apiRequest('/api/team/members', { signal });
}
