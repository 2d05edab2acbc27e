// Event shapes of the live stream (WebSocket /api/ws), as the server sends them.
import type { Assignee, ConversationStatus, Label, Message, MessageStatus } from '../api/types';

// `phone_number` names the customer key's phone and is null for a BSUID-only customer; the
// conversation id always ends with the key (lib/customer/customer-key.ts).

export interface NewMessageEvent {
  conversation_id: string;
  phone_number: string | null;
  name: string | null;
  message: Message;
}

/** A customer edited or deleted a message: the whole message as it is now. */
export interface MessageUpdatedEvent {
  conversation_id: string;
  phone_number: string | null;
  message: Message;
}

export interface StatusUpdateEvent {
  conversation_id: string;
  phone_number: string | null;
  message_id: string;
  /** Set on the first update of a message sent by this app: its temporary id. */
  client_message_id?: string;
  status: MessageStatus;
  error?: unknown;
}

export interface NotificationEvent {
  conversation_id: string;
  phone_number: string | null;
  name: string | null;
  /** Absent from the notification a read sends (only the counts change). */
  preview?: string | null;
  unread_count: number;
  total_unread: number;
  last_message_timestamp?: string | null;
}

export interface NewContactEvent {
  phone_number: string | null;
  user_id?: string | null;
  username?: string | null;
  name: string | null;
  conversation_id: string;
  /** The customer's previous key, when the customer was known under another one. */
  previous_phone_number?: string | null;
  /**
   * A known contact renamed (an agent's edit, an import or the app's address book): only `name`
   * changed.
   */
  renamed?: boolean;
}

export interface SystemNotificationEvent {
  type: string;
  message: string;
  conversation_id?: string;
}

/** Progress of a bulk template send (transient: seq 0, never replayed). */
export interface BulkSendProgressEvent {
  job_id: string;
  total: number;
  done: number;
  success: number;
  errors: number;
  finished: boolean;
}

/** A conversation's assignment or status changed (notifications/all). */
export interface ConversationUpdatedEvent {
  conversation_id: string;
  phone_number: string | null;
  user_id?: string | null;
  status: ConversationStatus;
  snoozed_until: string | null;
  assignee: Assignee | null;
  labels?: Label[];
  by: Assignee | null;
  /** `claim_timeout` when a claim lapsed without a reply. */
  reason?: string | null;
}

/** What a teammate is doing in a conversation (on the conversation's channel). */
export type PresenceState = 'viewing' | 'typing' | 'idle';

export interface AgentActivityEvent {
  conversation_id: string;
  user_id: string;
  name: string;
  state: PresenceState;
}

/** A conversation was deleted with its contact (by anyone of the team). */
export interface ContactDeletedEvent {
  conversation_id: string;
  /** The customer's key: a phone's digits or a BSUID. */
  phone_number: string;
  total_unread: number;
}

/** A note mentioned the signed-in user. */
export interface MentionEvent {
  conversation_id: string;
  note: Message;
  by: Assignee;
}

export type RealtimeEvent =
  | { event: 'new_message'; seq?: number; channel?: string; data: NewMessageEvent }
  | { event: 'message_updated'; seq?: number; channel?: string; data: MessageUpdatedEvent }
  | { event: 'message_status_update'; seq?: number; channel?: string; data: StatusUpdateEvent }
  | { event: 'notification'; seq?: number; channel?: string; data: NotificationEvent }
  | { event: 'new_contact'; seq?: number; channel?: string; data: NewContactEvent }
  | { event: 'template_status'; seq?: number; channel?: string; data: Record<string, unknown> }
  | { event: 'system_notification'; seq?: number; channel?: string; data: SystemNotificationEvent }
  | { event: 'bulk_send_progress'; seq?: number; channel?: string; data: BulkSendProgressEvent }
  | { event: 'conversation_updated'; seq?: number; channel?: string; data: ConversationUpdatedEvent }
  | { event: 'agent_activity'; seq?: number; channel?: string; data: AgentActivityEvent }
  | { event: 'mention'; seq?: number; channel?: string; data: MentionEvent }
  | { event: 'contact_deleted'; seq?: number; channel?: string; data: ContactDeletedEvent }
  /** The business's labels after one was created, renamed, recoloured or deleted. */
  | { event: 'labels_changed'; seq?: number; channel?: string; data: { labels: Label[] } }
  /** The server could not replay the gap since the last seq: re-fetch everything. */
  | { event: 'reset'; seq?: number; channel?: string; data?: undefined };

export const NOTIFICATIONS_CHANNEL = 'notifications/all';
