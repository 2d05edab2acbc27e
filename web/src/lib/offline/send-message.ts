// POST /api/send-message for a queued message, shared by the page and the service worker.
import { heldBy } from '../api/assignment-conflict';
import { ApiError, apiRequest } from '../api/client';
import { currentAccount } from '../api/token-claims';
import type { PendingMessage } from './db';
import { SendDeferred, SendRefused, SendRejected, syncOutbox } from './outbox';

export const SEND_MESSAGE_PATH = '/api/send-message';

export interface SendAnswer {
  status: string;
  response?: { messages?: { id: string }[] };
  media_url?: string;
}

/** The multipart body of the spec's send-message call; message_id is the temporary id. */
export function sendForm(message: PendingMessage): FormData {
  const form = new FormData();
  form.set('to', message.to);
  form.set('message_id', message.tempMessageId);
  form.set('phoneNumber', message.phoneNumber);
  if (message.phoneNumberId) form.set('phoneNumberId', message.phoneNumberId);
  form.set('message_type', message.message_type);
  if (message.file) {
    form.set('file', message.file, message.filename);
    if (message.filename) form.set('filename', message.filename);
    if (message.caption) form.set('caption', message.caption);
  } else {
    form.set('text', message.text ?? '');
  }
  if (message.takeOver) form.set('take_over', 'true');
  if (message.context) form.set('context_message_id', message.context.id);
  return form;
}

/** Answers that another attempt cannot change (a bad request, the reply window closed, too large). */
const FINAL_REFUSALS = new Set([400, 404, 409, 410, 413, 415, 422]);

/**
 * What a refused send becomes in the outbox: another teammate's hold, a final refusal with the
 * server's reason, or the error itself (counted, tried again later).
 */
export function sendFailure(error: ApiError): Error {
  const holder = heldBy(error);
  if (holder) return new SendRefused(holder);
  if (FINAL_REFUSALS.has(error.status)) return new SendRejected(error.detail ?? error.serverMessage ?? error.message);
  return error;
}

export function providerIdOf(answer: SendAnswer): string | undefined {
  return answer.response?.messages?.[0]?.id;
}

/**
 * The page's sender: through the API client (token refresh included). No network defers, and so
 * does a message of another account than the signed-in one (never sent with this one's token).
 */
export async function sendFromPage(message: PendingMessage): Promise<string | undefined> {
  if (message.account !== currentAccount()) throw new SendDeferred('written by another account');
  try {
    return providerIdOf(await apiRequest<SendAnswer>(SEND_MESSAGE_PATH, { method: 'POST', form: sendForm(message) }));
  } catch (error) {
    if (error instanceof TypeError) throw new SendDeferred('network unreachable');
    throw error instanceof ApiError ? sendFailure(error) : error;
  }
}

/** Sends the signed-in account's queue from the page. */
export function syncFromPage(): Promise<boolean> {
  return syncOutbox(sendFromPage, currentAccount());
}
