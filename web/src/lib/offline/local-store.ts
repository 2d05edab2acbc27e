// What the app keeps for offline use: the chat list (users store), each conversation's latest
// messages (messages store, by conversation_id) and the media blobs (media store).
import type { Conversation, Message } from '../api/types';
import { customerKey, isBsuid } from '../customer/customer-key';
import { MEDIA_CACHE } from '../media/media-cache';
import { db } from './db';
import { SESSION_CACHE } from './service-worker';

// The users store is keyed by phone_number (spec: version 7); a customer known only by BSUID has
// none, so the customer key stands in while saved and is read back as a BSUID.

/** A saved row as the server sent it: a BSUID standing in for the phone is taken back out. */
function restored(row: Conversation): Conversation {
  const key = customerKey(row);
  return isBsuid(key) ? { ...row, phone_number: null, user_id: row.user_id ?? key } : row;
}

export async function saveConversations(rows: Conversation[]): Promise<void> {
  const tx = (await db()).transaction('users', 'readwrite');
  await Promise.all([...rows.map((row) => tx.store.put({ ...row, phone_number: customerKey(row) })), tx.done]);
}

/** The saved chat list, newest first, filtered by name, phone or username like the server's search. */
export async function savedConversations(search: string): Promise<Conversation[]> {
  const needle = search.trim().toLowerCase();
  const rows = (await (await db()).getAll('users')).map(restored);
  return rows
    .filter((row) => !needle || [customerKey(row), row.name, row.username].some((field) => (field ?? '').toLowerCase().includes(needle)))
    .sort((a, b) => (b.last_message_timestamp ?? '').localeCompare(a.last_message_timestamp ?? ''));
}

export async function saveMessages(conversationId: string, messages: Message[]): Promise<void> {
  const tx = (await db()).transaction('messages', 'readwrite');
  await Promise.all([...messages.map((message) => tx.store.put({ ...message, conversation_id: conversationId })), tx.done]);
}

export async function savedMessages(conversationId: string): Promise<Message[]> {
  const messages = await (await db()).getAllFromIndex('messages', 'conversation_id', conversationId);
  return messages.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}

/**
 * Sign-out clears the stores users, messages and pending-messages (spec section 4). The media
 * (both caches) and thumbnails go too, and the worker's copy of the token: the next account on
 * this browser must not see the last one's files.
 */
export async function clearLocalStores(): Promise<void> {
  if (typeof caches !== 'undefined') await Promise.all([caches.delete(SESSION_CACHE), caches.delete(MEDIA_CACHE)]);
  const stores = ['users', 'messages', 'pending-messages', 'media', 'thumbnails'] as const;
  const tx = (await db()).transaction(stores, 'readwrite');
  await Promise.all([...stores.map((name) => tx.objectStore(name).clear()), tx.done]);
}
