// Canned replies: the owner manages them on their own page; every member inserts them in the
// composer by typing `/shortcut`.
import { apiRequest } from './client';

/** A canned reply (docs/API.md, "Canned replies"). Its text may hold `{{name}}`, `{{phone}}`, `{{agent}}`. */
export interface CannedReply {
  id: string;
  shortcut: string;
  text: string;
  updated_at: string;
}

export interface CannedReplyFields {
  shortcut: string;
  text: string;
}

const BASE = '/api/canned-replies';

export async function getCannedReplies(): Promise<CannedReply[]> {
  const answer = await apiRequest<{ canned_replies: CannedReply[] }>(BASE);
  return answer.canned_replies;
}

/** Owner only. */
export function createCannedReply(fields: CannedReplyFields): Promise<CannedReply> {
  return apiRequest(BASE, { method: 'POST', json: fields });
}

/** Owner only. */
export function updateCannedReply(id: string, fields: CannedReplyFields): Promise<CannedReply> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}`, { method: 'PATCH', json: fields });
}

/** Owner only. */
export function deleteCannedReply(id: string): Promise<unknown> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
