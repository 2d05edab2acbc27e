import { apiRequest } from '../../../lib/api/client';
import type { Conversation, Message, Template } from '../../../lib/api/types';
import type { ListFilter } from './team-api';

export const CONVERSATIONS_PAGE_SIZE = 20;
export const MESSAGES_PAGE_SIZE = 30;

export interface ConversationPage {
  users: Conversation[];
  has_more: boolean;
  page: number;
  total_unread: number;
}

export async function getConversations(page: number, search: string, filter: ListFilter, signal?: AbortSignal): Promise<ConversationPage> {
  const query = new URLSearchParams({
    page: String(page),
    limit: String(CONVERSATIONS_PAGE_SIZE),
    assignee: filter.assignee,
    status: filter.status,
  });
  if (search) query.set('search_query', search);
  if (filter.label) query.set('label', filter.label);
  const answer = await apiRequest<{ data: ConversationPage }>(`/api/users?${query}`, { signal });
  return answer.data;
}

export interface MessagePage {
  messages: Message[];
  has_more_older: boolean;
  /** On the newest page, the conversation's list row (absent for a customer without a contact). */
  conversation?: Conversation;
}

// Conversations are addressed by customer key: the phone, or the BSUID of a customer without one.

/** A page of history; `before` (the oldest message held) asks for the messages before it. */
export function getMessages(key: string, before?: Pick<Message, 'timestamp' | 'message_id'>, signal?: AbortSignal): Promise<MessagePage> {
  const query = new URLSearchParams({ limit: String(MESSAGES_PAGE_SIZE) });
  if (before) {
    // With the id, messages sharing the oldest one's time are neither skipped nor repeated.
    query.set('before_timestamp', before.timestamp);
    query.set('before_id', before.message_id);
  }
  return apiRequest(`/api/conversation/${encodeURIComponent(key)}?${query}`, { signal });
}

export function markAsRead(key: string): Promise<{ status: string; modified_count: number }> {
  return apiRequest(`/api/conversation/${encodeURIComponent(key)}/mark-as-read`, { method: 'POST' });
}

/** The business's emoji on a message of the conversation; an empty one takes it off. */
export function reactToMessage(key: string, messageId: string, emoji: string): Promise<{ status: string }> {
  const path = `/api/conversation/${encodeURIComponent(key)}/messages/${encodeURIComponent(messageId)}/reaction`;
  return apiRequest(path, { method: 'POST', json: { emoji } });
}

export function getConfig(): Promise<{ phoneNumberId: string }> {
  return apiRequest('/api/config');
}

// Sending goes through the outbox: lib/offline/send-message.ts.

/** Plus signs are stripped from phone numbers before sending (spec section 5). */
export function cleanPhone(phone: string): string {
  return phone.replace(/\+/g, '').trim();
}

/** The server's answer to a saved contact: its customer key as the server normalised it (digits, country code). */
export interface ContactSaved {
  phone_number?: string;
}

export function addContact(name: string, phone: string): Promise<ContactSaved> {
  return apiRequest('/api/contacts/add', { method: 'POST', json: { name, phone_number: cleanPhone(phone) } });
}

/** Renames the customer `key`; a changed phone moves the conversation (a BSUID-only one has none). */
export function updateContact(key: string, name: string, phone: string | null): Promise<ContactSaved> {
  const newPhone = phone === null ? key : cleanPhone(phone);
  return apiRequest('/api/users/update', {
    method: 'POST',
    json: {
      name,
      phone_number: key,
      ...(newPhone !== key ? { new_phone_number: newPhone } : {}),
    },
  });
}

export function deleteContact(key: string): Promise<unknown> {
  return apiRequest(`/api/contacts/delete/${encodeURIComponent(key)}`, { method: 'DELETE' });
}

export function getTemplates(): Promise<Template[]> {
  return apiRequest('/api/templates');
}

export interface TemplateSend {
  /** The customer key: `to` takes a phone or a BSUID. */
  phone: string;
  phoneNumberId: string;
  template: Template;
  components: unknown[];
  /** The header's image, video or document; its parameter names it `UPLOADED_MEDIA_ID`. */
  mediaFile: File | null;
}

/** `takeOver` sends into a conversation someone else holds, making the sender its holder. */
export function sendTemplate({ phone, phoneNumberId, template, components, mediaFile }: TemplateSend, takeOver = false): Promise<unknown> {
  const form = new FormData();
  if (mediaFile) form.set('media_file', mediaFile);
  form.set('to', phone);
  form.set('phone_number_id', phoneNumberId);
  form.set('template_name', template.name);
  form.set('language_code', template.language);
  form.set('components_json', JSON.stringify(components));
  if (takeOver) form.set('take_over', 'true');
  return apiRequest('/api/send-template', { method: 'POST', form });
}
