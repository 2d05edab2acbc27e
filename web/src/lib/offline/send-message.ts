// POST /api/send-message for a queued message, shared by the page and the service worker.
import { heldBy } from '../api/assignment-conflict';
import { apiRequest } from '../api/client';
import { currentAccount } from '../api/token-claims';
import type { PendingMessage } from './db';
import { SendDeferred, SendRefused, syncOutbox } from './outbox';

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
    const holder = heldBy(error);
    throw holder ? new SendRefused(holder) : error;
  }
}

/** Sends the signed-in account's queue from the page. */
export function syncFromPage(): Promise<boolean> {
  return syncOutbox(sendFromPage, currentAccount());
}
