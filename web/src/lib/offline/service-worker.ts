// The page's side of the service worker: registration within 10 s (spec section 5), the
// worker's MESSAGE_SENT reports and OPEN_CONVERSATION requests (a notification was clicked), and what the worker needs to send while the page is closed (a
// background-sync registration and the current access token, which the worker cannot read from
// localStorage).
import { getAccessToken } from '../api/session-store';
import { announce, type OutboxChange } from './outbox';

export const SW_REGISTRATION_TIMEOUT_MS = 10_000;
export const OUTBOX_SYNC_TAG = 'outbox';
/** A Cache Storage entry holding the access token for the worker. */
export const SESSION_CACHE = 'parley-session';
export const SESSION_TOKEN_URL = '/__parley/access-token';

export interface MessageSent {
  type: 'MESSAGE_SENT';
  tempMessageId: string;
  messageId?: string;
}

/** The worker's send failed for good (refused, held by a teammate, or out of tries): pages show it failed. */
export interface MessageFailed {
  type: 'MESSAGE_FAILED';
  change: OutboxChange;
}

/** The worker asks the page to show a conversation (its notification was clicked). */
export interface OpenConversation {
  type: 'OPEN_CONVERSATION';
  conversationId: string;
}

/** The window event the page's router follows for an OPEN_CONVERSATION request; detail: the id. */
export const OPEN_CONVERSATION_EVENT = 'parley:open-conversation';

interface SyncRegistration extends ServiceWorkerRegistration {
  sync?: { register(tag: string): Promise<void> };
}

let registration: Promise<ServiceWorkerRegistration | null> = Promise.resolve(null);

/** Registers /sw.js; answers null (and reports why) when unsupported, refused or over 10 s. */
export function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return registration;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<MessageSent | MessageFailed | OpenConversation>) => {
    if (event.data?.type === 'MESSAGE_SENT') {
      announce({ tempMessageId: event.data.tempMessageId, status: 'sent', messageId: event.data.messageId });
    } else if (event.data?.type === 'MESSAGE_FAILED') {
      announce({ ...event.data.change, status: 'failed' });
    } else if (event.data?.type === 'OPEN_CONVERSATION') {
      window.dispatchEvent(new CustomEvent(OPEN_CONVERSATION_EVENT, { detail: event.data.conversationId }));
    }
  });
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no service worker after ${SW_REGISTRATION_TIMEOUT_MS} ms`)), SW_REGISTRATION_TIMEOUT_MS),
  );
  registration = Promise.race([navigator.serviceWorker.register('/sw.js'), timeout]).catch((error: unknown) => {
    console.error('service worker registration failed', error);
    return null;
  });
  return registration;
}

/**
 * The active registration, or null without a worker. A page the worker controls has it at once
 * (registering again may wait on an update check that the network holds up).
 */
export async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  if (!navigator.serviceWorker.controller && !(await registration)) return null;
  return navigator.serviceWorker.ready;
}

/** Asks the worker to send the queue when the connection returns, even if this page is closed. */
export async function requestBackgroundSync(): Promise<void> {
  const active = (await activeRegistration()) as SyncRegistration | null;
  if (!active?.sync) return;
  const token = getAccessToken();
  if (token) await (await caches.open(SESSION_CACHE)).put(SESSION_TOKEN_URL, new Response(token));
  await active.sync.register(OUTBOX_SYNC_TAG);
}
