import { apiRequest, apiResponse } from '../../../lib/api/client';
import type { Template } from '../../../lib/api/types';
import type { BulkSendProgressEvent } from '../../../lib/realtime/events';

export const SAMPLE_FILE_NAME = 'sample_phone_numbers.csv';

/** The business's number id, and the country of numbers typed without a country code. */
export function getConfig(): Promise<{ phoneNumberId?: string | null; defaultRegion?: string | null } | null> {
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

/** A bulk recipient: its number and, from the file's variable columns, its own values. */
export interface BulkRecipient {
  phone_number: string;
  variables?: Record<string, string>;
}

export type TemplateSend = SendCommon & ({ mode: 'single'; to: string } | { mode: 'bulk'; recipients: BulkRecipient[] });

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

export type SkipReason = 'invalid_number' | 'duplicate' | 'missing_variable';

/** One row of a recipient file that gives no recipient: its number (from 1, as a spreadsheet shows it), its cell, and why. */
export interface SkippedRow {
  row: number;
  value: string;
  reason: SkipReason;
  /** The empty variable column, for `missing_variable`. */
  variable?: string | null;
}

/** The rows of a recipient file that give no recipient, counted by reason, listed, and as a CSV file. */
export interface SkippedRows {
  count: number;
  invalid_number: number;
  duplicate: number;
  missing_variable: number;
  rows?: SkippedRow[];
  csv: string;
}

export interface ParsedRecipients {
  fileName: string;
  count: number;
  numbers: string[];
  /** Per number, its row's values of the template's variable columns. */
  variables: Record<string, Record<string, string>>;
  skipped: SkippedRows;
}

/**
 * POST /api/recipients/parse: the numbers of a csv, xls or xlsx file (E.164 digits), with the
 * values of the `columns` the chosen template's variables are named by.
 */
export function parseRecipients(
  file: File,
  columns: string[],
  onUploadProgress: (fraction: number) => void,
): Promise<ParsedRecipients> {
  const form = new FormData();
  form.set('file', file);
  form.set('variables', columns.join(','));
  return apiRequest('/api/recipients/parse', { method: 'POST', form, onUploadProgress });
}

/** GET /api/recipients/sample (public). */
export async function getSample(): Promise<Blob> {
  return (await apiResponse('/api/recipients/sample', { anonymous: true })).blob();
}
