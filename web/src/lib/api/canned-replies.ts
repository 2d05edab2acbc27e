// Canned replies: the owner manages them on their own page; every member inserts them in the
// composer by typing `/shortcut`. A reply may carry a file, attached to the message it starts.
import { apiRequest, apiResponse } from './client';

/** A canned reply's file, served by `GET /api/media/{id}`. */
export interface CannedMedia {
  id: string;
  mime_type: string;
  filename: string;
  size: number;
}

/** A canned reply (docs/API.md, "Canned replies"). Its text may hold `{{name}}`, `{{phone}}`, `{{agent}}`. */
export interface CannedReply {
  id: string;
  shortcut: string;
  text: string;
  media: CannedMedia | null;
  updated_at: string;
}

export interface CannedReplyFields {
  shortcut: string;
  text: string;
  /** A new file for the reply. */
  file?: File | null;
  /** Drops the stored file (an edit without a new file). */
  removeMedia?: boolean;
}

const BASE = '/api/canned-replies';

/** The multipart body the server reads for a create or an edit. */
function formOf(fields: CannedReplyFields): FormData {
  const form = new FormData();
  form.append('shortcut', fields.shortcut);
  form.append('text', fields.text);
  if (fields.file) form.append('file', fields.file);
  else if (fields.removeMedia) form.append('remove_media', 'true');
  return form;
}

export async function getCannedReplies(): Promise<CannedReply[]> {
  const answer = await apiRequest<{ canned_replies: CannedReply[] }>(BASE);
  return answer.canned_replies;
}

/** Owner only. */
export function createCannedReply(fields: CannedReplyFields): Promise<CannedReply> {
  return apiRequest(BASE, { method: 'POST', form: formOf(fields) });
}

/** Owner only. */
export function updateCannedReply(id: string, fields: CannedReplyFields): Promise<CannedReply> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}`, { method: 'PATCH', form: formOf(fields) });
}

/** Owner only. */
export function deleteCannedReply(id: string): Promise<unknown> {
  return apiRequest(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The path the reply's file is served at. */
export const cannedMediaUrl = (media: CannedMedia) => `/api/media/${encodeURIComponent(media.id)}`;

/** The reply's stored file as a File, to attach in the composer as a picked file is. */
export async function cannedMediaFile(media: CannedMedia): Promise<File> {
  const bytes = await (await apiResponse(cannedMediaUrl(media))).arrayBuffer();
  return new File([bytes], media.filename || media.id, { type: media.mime_type });
}
