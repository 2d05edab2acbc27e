// Shapes of the main API's answers shared by several parts of the app.

export type MessageStatus = 'sending' | 'pending' | 'sent' | 'delivered' | 'read' | 'failed';

export type MessageType =
  | 'text'
  | 'image'
  | 'video'
  | 'audio'
  | 'document'
  | 'sticker'
  | 'location'
  | 'interactive'
  | 'button'
  | 'order'
  | 'template'
  | 'reaction'
  | 'contacts'
  | 'system'
  | 'unsupported'
  /** Team history kept in the conversation, never sent to the customer. */
  | 'activity'
  | 'note';

export interface MediaRef {
  media_url?: string;
  mime_type?: string;
  filename?: string;
}

export interface TemplateButton {
  type: string;
  text: string;
  url?: string;
  phone_number?: string;
  copy_code?: string;
}

/** A template component as the provider defines it (GET /api/templates). */
export interface TemplateComponent {
  type: string;
  /** HEADER only: TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION. */
  format?: string;
  text?: string;
  /** BUTTONS only. */
  buttons?: TemplateButton[];
}

/** A template of the business (GET /api/templates); only APPROVED ones can be sent. */
export interface Template {
  id: string;
  name: string;
  language: string;
  status: string;
  category?: string;
  components: TemplateComponent[];
  /** Why WhatsApp rejected, paused or disabled it; null while there is no such reason. */
  reason?: string | null;
}

export interface ListRow {
  id: string;
  title: string;
  description?: string;
}

export interface InteractiveList {
  type: 'list';
  header?: string | { text?: string };
  body?: string | { text?: string };
  footer?: string | { text?: string };
  action: { button: string; sections: { title?: string; rows: ListRow[] }[] };
}

export interface InteractiveReply {
  type: string;
  id: string;
  title: string;
  description?: string;
}

/** A WhatsApp Flow's answer: `response` is the flow's JSON (or the raw string if not JSON). */
export interface FlowReply {
  type: 'nfm_reply';
  name?: string;
  body?: string;
  response: unknown;
}

/** The customer's answer to a request for permission to call them. */
export interface CallPermissionReply {
  type: 'call_permission_reply';
  response: 'accept' | 'reject';
  /** Unix seconds. */
  expiration_timestamp?: number | string;
  response_source?: string;
  /** True when the customer allowed calls for good (no expiration then). */
  is_permanent?: boolean;
}

/** A contact card the customer shared, as WhatsApp sends it. */
export interface SharedContact {
  name?: { formatted_name?: string; first_name?: string; last_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
  emails?: { email?: string; type?: string }[];
  org?: { company?: string; department?: string; title?: string };
  urls?: { url?: string; type?: string }[];
}

/** The click-to-WhatsApp ad the customer came from. */
export interface AdReferral {
  source_url?: string;
  source_id?: string;
  source_type?: string;
  headline?: string;
  body?: string;
  media_type?: string;
  image_url?: string;
  video_url?: string;
  thumbnail_url?: string;
  ctwa_clid?: string;
}

/**
 * A Cloud API error: one WhatsApp attached to a customer's message it could not pass on (an
 * unsupported kind), or the reason a sent message failed (its `error`).
 */
export interface ProviderError {
  code?: number;
  title?: string;
  message?: string;
  error_data?: { details?: string };
}

export interface OrderItem {
  product_retailer_id: string;
  quantity: number;
  item_price: number;
  currency: string;
}

/** The message a reply answers: its `message_id`, and (when the conversation holds it) what the
 * quote shows of it. */
export interface MessageContext extends ForwardMarks {
  id: string;
  from?: string;
  quoted?: { type: string; text: string | null; direction: 'incoming' | 'outgoing' };
}

/** Whether the customer forwarded the message, and whether it was forwarded many times. */
export interface ForwardMarks {
  forwarded?: boolean;
  frequently_forwarded?: boolean;
}

/** A forwarded message's context: it names no message, so it answers none. */
export interface ForwardContext extends ForwardMarks {
  id?: undefined;
}

/** Message content; which fields are set depends on the message type. */
export interface MessageContent {
  text?: string;
  caption?: string;
  full_text?: string;
  body?: string;
  image?: MediaRef;
  video?: MediaRef;
  audio?: MediaRef;
  document?: MediaRef;
  sticker?: MediaRef;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  interactive?: InteractiveList | InteractiveReply | FlowReply | CallPermissionReply;
  buttons?: { id: string; title: string }[];
  payload?: string;
  order?: { catalog_id?: string; text?: string; product_items: OrderItem[] };
  template_structure?: {
    header?: string | { text?: string; format?: string };
    body?: string | { text?: string };
    footer?: string | { text?: string };
    buttons?: TemplateButton[];
  };
  /** A sent template's components as sent: its header's media id or location is in there. */
  components?: unknown[];
  reaction?: { message_id: string; emoji: string };
  /** A reply: the message it answers, and what the quote shows of it; or the marks of a forward. */
  context?: MessageContext | ForwardContext;
  /** Each side's emoji on this message. */
  reactions?: { customer?: string; business?: string };
  contacts?: SharedContact[];
  referral?: AdReferral;
  errors?: ProviderError[];
  /** Sent by the business from the WhatsApp Business app on the phone (coexistence). */
  echo?: boolean;
  /** The customer deleted the message for everyone. */
  revoked?: boolean;
  /** Activity entries: who changed the assignment or the status. */
  activity?: Activity;
  /** Notes: the usernames the note mentions. */
  mentions?: string[];
  /** A notice WhatsApp writes about the customer: its kind (`user_changed_number`, `request_welcome`, …). */
  system?: { type?: string };
}

/** A staff member as conversations name them. */
export interface Assignee {
  id: string;
  name: string;
}

export type ConversationStatus = 'open' | 'pending' | 'resolved' | 'snoozed';

/** A change to a conversation's assignment or status, as its history shows it. */
export interface Activity {
  action: 'assigned' | 'unassigned' | 'status';
  by: Assignee;
  assignee?: Assignee | null;
  status?: ConversationStatus;
  snoozed_until?: string | null;
  /** `claim_timeout` when a claim lapsed without a reply. */
  reason?: string | null;
}

export interface Message {
  message_id: string;
  timestamp: string;
  status: MessageStatus;
  /** `internal`: notes and activity, seen by the team only. */
  direction: 'incoming' | 'outgoing' | 'internal';
  type: MessageType;
  content: MessageContent;
  is_read?: boolean;
  sender_name?: string | null;
  conversation_id?: string;
  error?: unknown;
  /** When the customer last edited the message (absent if never). */
  edited_at?: string;
  /** When the customer deleted it for everyone (absent if not). */
  revoked_at?: string;
  /** The id our client sent it with, once the provider's id replaced it. */
  client_message_id?: string;
}

/** A tag of the business's own (GET /api/labels); conversations carry any number of them. */
export interface Label {
  id: string;
  name: string;
  /** `#RRGGBB`. */
  color: string;
}

export interface Conversation {
  /** Null for a customer known only by their business-scoped user id (`user_id`). */
  phone_number: string | null;
  user_id?: string | null;
  /** The customer's WhatsApp username, e.g. "@realsheenanelson". */
  username?: string | null;
  name: string | null;
  conversation_id: string;
  last_message_content: { text?: string | null; caption?: string | null; revoked?: boolean } | null;
  last_message_timestamp: string | null;
  last_incoming_timestamp: string | null;
  unread_count: number;
  status?: ConversationStatus;
  snoozed_until?: string | null;
  assignee?: Assignee | null;
  labels?: Label[];
}
