import { apiRequest, apiResponse } from '../../../lib/api/client';
import type { Template } from '../../../lib/api/types';
import type { BulkSendProgressEvent } from '../../../lib/realtime/events';

export const SAMPLE_FILE_NAME = 'sample_phone_numbers.csv';

export function getConfig(): Promise<{ phoneNumberId?: string | null } | null> {
  return apiRequest('/api/config');
}

export function getTemplates(): Promise<Template[]> {
  return apiRequest('/api/templates');
}

interface SendCommon {
  template: Template;
  phoneNumberId: string;
  components: object[];
  mediaFile: File | null;
}

export type TemplateSend = SendCommon & ({ mode: 'single'; to: string } | { mode: 'bulk'; recipients: string[] });

/** The multipart body of POST /api/send-template (spec section 7). */
export function sendTemplateForm(send: TemplateSend): FormData {
  const form = new FormData();
  if (send.mediaFile) form.set('media_file', send.mediaFile);
  form.set('send_mode', send.mode);
  form.set('template_name', send.template.name);
  form.set('language_code', send.template.language);
  form.set('components_json', JSON.stringify(send.components));
  form.set('phone_number_id', send.phoneNumberId);
  if (send.mode === 'single') form.set('to', send.to);
  else form.set('recipients_json', JSON.stringify(send.recipients));
  return form;
}

/** A bulk send answers 202 with the job that sends it in the background. */
export interface BulkAccepted {
  job_id: string;
  total: number;
}

export function sendTemplate(send: TemplateSend, onUploadProgress: (fraction: number) => void): Promise<unknown> {
  return apiRequest('/api/send-template', { method: 'POST', form: sendTemplateForm(send), onUploadProgress });
}

/** GET /api/send-template/jobs/{id}: the job's counts so far. */
export function getJob(jobId: string): Promise<BulkSendProgressEvent> {
  return apiRequest(`/api/send-template/jobs/${encodeURIComponent(jobId)}`);
}

export interface ParsedRecipients {
  fileName: string;
  count: number;
  numbers: string[];
}

/** POST /api/recipients/parse: the digit-only numbers of a csv, xls or xlsx file. */
export function parseRecipients(file: File, onUploadProgress: (fraction: number) => void): Promise<ParsedRecipients> {
  const form = new FormData();
  form.set('file', file);
  return apiRequest('/api/recipients/parse', { method: 'POST', form, onUploadProgress });
}

/** GET /api/recipients/sample (public). */
export async function getSample(): Promise<Blob> {
  return (await apiResponse('/api/recipients/sample', { anonymous: true })).blob();
}
