// How a customer is named on screen. A customer who took a WhatsApp username may be known without
// a phone: their username stands where the phone would, and names them when they gave no name.
import type { Conversation } from '../../lib/api/types';

/** The name line: the contact's name, else the username; null when neither is known. */
export function titleOf(row: Conversation): string | null {
  return row.name || row.username || null;
}

/** The line under the name: the phone, else the username, else the business-scoped user id. */
export function handleOf(row: Conversation): string {
  return row.phone_number || row.username || row.user_id || '';
}
