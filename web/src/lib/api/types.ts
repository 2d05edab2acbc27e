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

export interface OrderItem {
  product_retailer_id: string;
  quantity: number;
  item_price: number;
  currency: string;
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
  interactive?: InteractiveList | InteractiveReply;
  buttons?: { id: string; title: string }[];
  payload?: string;
  order?: { catalog_id?: string; text?: string; product_items: OrderItem[] };
  template_structure?: {
    header?: string | { text?: string; format?: string };
    body?: string | { text?: string };
    footer?: string | { text?: string };
    buttons?: TemplateButton[];
  };
  reaction?: { message_id: string; emoji: string };
  /** Activity entries: who changed the assignment or the status. */
  activity?: Activity;
  /** Notes: the usernames the note mentions. */
  mentions?: string[];
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
}

export interface Conversation {
  phone_number: string;
  name: string | null;
  conversation_id: string;
  last_message_content: { text?: string | null; caption?: string | null } | null;
  last_message_timestamp: string | null;
  last_incoming_timestamp: string | null;
  unread_count: number;
  status?: ConversationStatus;
  snoozed_until?: string | null;
  assignee?: Assignee | null;
}
