// A send or a claim into a conversation another teammate holds is refused with 409
// `assigned_to_other`, naming the holder; the app then offers to take the conversation over.
import { ApiError } from './client';
import type { Assignee } from './types';

/** Who holds the conversation, when the error is that refusal; null for any other error. */
export function heldBy(error: unknown): Assignee | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'assigned_to_other') return null;
  const assignee = error.body.assignee as Partial<Assignee> | null | undefined;
  return assignee && typeof assignee.name === 'string' ? { id: String(assignee.id ?? ''), name: assignee.name } : null;
}
