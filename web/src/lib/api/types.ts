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
  | 'unsupported';

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
}

export interface Message {
  message_id: string;
  timestamp: string;
  status: MessageStatus;
  direction: 'incoming' | 'outgoing';
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
}
