/// <reference lib="webworker" />
// The service worker: the app shell precached so the app opens offline, pdf.js and media cached at
// runtime, the outbox sent by background sync when the page is closed (MESSAGE_SENT tells open
// pages), and Web Push notifications that open the conversation when clicked.
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ApiError } from './lib/api/client';
import { accountOf } from './lib/api/token-claims';
import { MEDIA_CACHE, isMediaPath } from './lib/media/media-cache';
import { onOutboxChange, SendDeferred, syncOutbox } from './lib/offline/outbox';
import { providerIdOf, sendFailure, sendForm, SEND_MESSAGE_PATH, type SendAnswer } from './lib/offline/send-message';
import {
  OUTBOX_SYNC_TAG,
  SESSION_CACHE,
  SESSION_TOKEN_URL,
  type MessageFailed,
  type MessageSent,
  type OpenConversation,
} from './lib/offline/service-worker';
import type { PendingMessage } from './lib/offline/db';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** Hashed assets fetched on first use rather than precached; their names change with content. */
const LAZY_ASSETS_CACHE = 'parley-lazy-assets';

interface SyncEvent extends ExtendableEvent {
  tag: string;
}

/** What the server pushes (server/src/push.rs). */
interface PushPayload {
  conversation_id: string;
  name: string;
  preview: string;
}

void self.skipWaiting();
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Client routes (/whatsapp, /login, ...) get the precached shell; the API never does.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/(api|identity|sandbox)\//] }));
// Hashed assets left out of the precache (pdf.js and its worker) are kept once first fetched.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && url.pathname.startsWith('/assets/'),
  new CacheFirst({ cacheName: LAZY_ASSETS_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 20 })] }),
);
registerRoute(
  ({ url, request }) => request.method === 'GET' && isMediaPath(url.pathname),
  new CacheFirst({ cacheName: MEDIA_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 300 })] }),
);

/** The access token the page left for the worker, if any. */
async function sessionToken(): Promise<string | undefined> {
  return (await (await caches.open(SESSION_CACHE)).match(SESSION_TOKEN_URL))?.text();
}

async function sendFromWorker(message: PendingMessage): Promise<string | undefined> {
  const token = await sessionToken();
  // Only with a token of the account that wrote it: the page may have left another account's.
  if (!token || accountOf(token) !== message.account) throw new SendDeferred('no session of this account');
  let response: Response;
  try {
    response = await fetch(SEND_MESSAGE_PATH, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: sendForm(message) });
  } catch {
    throw new SendDeferred('network unreachable');
  }
  // An expired token is the open page's to refresh; the message waits for it.
  if (response.status === 401 || response.status === 403) throw new SendDeferred('token refused');
  if (!response.ok) throw sendFailure(new ApiError(response.status, await response.json().catch(() => null)));
  return providerIdOf((await response.json()) as SendAnswer);
}

/** Reports still being posted; a sync event lasts until they are out. */
const reports = new Set<Promise<void>>();

// Every message this worker sends, or that fails in its hands, is reported once to the open
// pages, whichever sync it was.
onOutboxChange((change) => {
  if (change.status !== 'sent' && change.status !== 'failed') return;
  const report: MessageSent | MessageFailed =
    change.status === 'sent' ? { type: 'MESSAGE_SENT', tempMessageId: change.tempMessageId, messageId: change.messageId } : { type: 'MESSAGE_FAILED', change };
  const posting = self.clients
    .matchAll({ type: 'window', includeUncontrolled: true })
    .then((pages) => pages.forEach((page) => page.postMessage(report)));
  reports.add(posting);
  void posting.finally(() => reports.delete(posting));
});

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    sessionToken()
      .then((token) => syncOutbox(sendFromWorker, token ? accountOf(token) : null))
      .then(async (unfinished) => {
        await Promise.all(reports);
        // Rejecting makes the browser fire the sync again later.
        if (unfinished) throw new Error('messages still waiting');
      }),
  );
});

self.addEventListener('push', (event) => {
  const payload = event.data?.json() as PushPayload | undefined;
  if (!payload) return;
  event.waitUntil(
    self.registration.showNotification(payload.name, {
      body: payload.preview,
      tag: payload.conversation_id,
      data: { conversationId: payload.conversation_id },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { conversationId } = event.notification.data as { conversationId: string };
  event.waitUntil(
    (async () => {
      // An open page of the app (not a static one like /privacy.html) switches to the
      // conversation itself, without a reload; with none, a new window opens on it.
      const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const app = pages.filter((page) => !new URL(page.url).pathname.endsWith('.html'));
      const page = app.find((candidate) => candidate.focused) ?? app[0];
      if (page) {
        const open: OpenConversation = { type: 'OPEN_CONVERSATION', conversationId };
        page.postMessage(open);
        await page.focus();
      } else {
        await self.clients.openWindow(`/whatsapp?conversation_id=${encodeURIComponent(conversationId)}`);
      }
    })(),
  );
});
