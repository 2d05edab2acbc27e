// Contacts this tab is deleting or has just deleted. The server announces a deletion to every
// session, this tab's included (`contact_deleted`), and it may do so before it answers the request;
// the tab that deleted says so in its own toast, so it keeps the live one for the others.
import { deleteContact } from './api/inbox-api';

/** How long a deletion stays this tab's own after the server confirmed it. */
const REMEMBERED_MS = 60_000;

const deleting = new Set<string>();

/** Deletes the contact (and its conversation), remembering that this tab did it. */
export async function deleteContactHere(key: string): Promise<void> {
  deleting.add(key);
  try {
    await deleteContact(key);
    window.setTimeout(() => deleting.delete(key), REMEMBERED_MS);
  } catch (error) {
    deleting.delete(key);
    throw error;
  }
}

/** Whether a `contact_deleted` for this customer key is this tab's own doing. */
export function deletedHere(key: string): boolean {
  return deleting.has(key);
}
