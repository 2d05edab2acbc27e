// The outgoing queue (spec section 4, "Outgoing message"): every message is stored in
// pending-messages before it leaves, and a sync sends the queue oldest first. A failed attempt
// increments retryCount; at MAX_RETRIES the message is failed and waits for a manual retry. The
// temporary id travels as `message_id`, which the server deduplicates on, so an attempt whose
// answer was lost can be repeated without doubling the message. The page and the service worker
// both run syncs; each record is changed in its own transaction, so they never resurrect a
// message the other has already sent. Each record belongs to the account that wrote it: an
// account's pass sees and sends only its own, and records written before accounts were kept
// (none stamped) are dropped rather than sent under whoever signs in next.
import type { Assignee } from '../api/types';
import { db, type PendingMessage } from './db';

export const MAX_RETRIES = 3;
/** How long a message being sent by one sender is left alone by the others. */
export const CLAIM_LEASE_MS = 60_000;

/** A send that did not reach the server (no network, or no valid token in the worker): not counted. */
export class SendDeferred extends Error {}

/** Another teammate holds the conversation: the message fails at once and waits for the user's take-over. */
export class SendRefused extends Error {
  readonly heldBy: Assignee;

  constructor(heldBy: Assignee) {
    super(`assigned to ${heldBy.name}`);
    this.heldBy = heldBy;
  }
}

/**
 * The server refused the message for good (the reply window closed meanwhile, say): trying again
 * cannot change that, so it fails at once and keeps the server's reason to show.
 */
export class SendRejected extends Error {}

/** What a sync reports for one message. */
export interface OutboxChange {
  tempMessageId: string;
  status: PendingMessage['status'] | 'sent';
  /** The provider's id once sent. */
  messageId?: string;
  /** Failed attempts so far, after an attempt. */
  retryCount?: number;
  /** Set when the message failed because this teammate holds the conversation. */
  heldBy?: Assignee;
  /** The server's reason when it refused the message for good. */
  failure?: string;
}

export type Sender = (message: PendingMessage) => Promise<string | undefined>;

const changes = new EventTarget();

export function onOutboxChange(listener: (change: OutboxChange) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<OutboxChange>).detail);
  changes.addEventListener('change', handler);
  return () => changes.removeEventListener('change', handler);
}

export function announce(change: OutboxChange): void {
  changes.dispatchEvent(new CustomEvent('change', { detail: change }));
}

export async function enqueue(message: PendingMessage): Promise<void> {
  await (await db()).put('pending-messages', message);
}

/** The account's queue, oldest first (none without an account). */
export async function pendingMessages(account: string | null): Promise<PendingMessage[]> {
  if (!account) return [];
  const all = await (await db()).getAll('pending-messages');
  return all.filter((m) => m.account === account).sort((a, b) => a.originalTimestamp.localeCompare(b.originalTimestamp));
}

/** Deletes the records no account owns (written before records were stamped with one). */
async function dropUnowned(): Promise<void> {
  const tx = (await db()).transaction('pending-messages', 'readwrite');
  const all = await tx.store.getAll();
  // Records from older versions have no `account`, whatever the type says.
  const unowned = all.filter((m) => typeof (m as Partial<PendingMessage>).account !== 'string');
  await Promise.all([...unowned.map((m) => tx.store.delete(m.tempMessageId)), tx.done]);
}

/**
 * Changes a record if it is still queued; answers the new record, or undefined when it is gone
 * or `change` declines.
 */
async function update(id: string, change: (message: PendingMessage) => PendingMessage | undefined): Promise<PendingMessage | undefined> {
  const tx = (await db()).transaction('pending-messages', 'readwrite');
  const current = await tx.store.get(id);
  const next = current && change(current);
  if (next) await tx.store.put(next);
  await tx.done;
  return next;
}

/** One try at a message; answers whether the pass may go on (sent, gone, or now failed). */
async function attempt(message: PendingMessage, send: Sender): Promise<boolean> {
  const now = Date.now();
  let busy = false;
  const claimed = await update(message.tempMessageId, (m) => {
    busy = m.status === 'sending' && m.claimedAt !== undefined && now - m.claimedAt < CLAIM_LEASE_MS;
    return busy ? undefined : { ...m, status: 'sending', claimedAt: now };
  });
  // Another sender has it: wait for the next pass rather than send it twice or overtake it.
  if (busy) return false;
  if (!claimed) return true;
  announce({ tempMessageId: message.tempMessageId, status: 'sending' });
  try {
    const messageId = await send(claimed);
    await (await db()).delete('pending-messages', message.tempMessageId);
    announce({ tempMessageId: message.tempMessageId, status: 'sent', messageId });
    return true;
  } catch (error) {
    const deferred = error instanceof SendDeferred;
    const refused = error instanceof SendRefused ? error.heldBy : undefined;
    const failure = error instanceof SendRejected ? error.message : undefined;
    const after = await update(message.tempMessageId, (m) => {
      const retryCount = deferred ? m.retryCount : m.retryCount + 1;
      const failed = refused || failure !== undefined || retryCount >= MAX_RETRIES;
      return { ...m, retryCount, status: failed ? 'failed' : 'pending', failure };
    });
    if (after) announce({ tempMessageId: after.tempMessageId, status: after.status, retryCount: after.retryCount, heldBy: refused, failure });
    return after?.status !== 'pending';
  }
}

let running: Promise<boolean> | null = null;
let again = false;
/** The account the next round of the running pass sends for: the latest caller's. */
let passAccount: string | null = null;

/**
 * Sends the account's queued messages in order. A message that fails stops the pass so nothing
 * overtakes it; failed ones wait for a manual retry and do not block the rest. One pass at a
 * time: a call during a pass makes it run once more (for the caller's account), so messages
 * queued meanwhile are not left behind. Answers whether the pass stopped on a message that must
 * be tried again later.
 */
export function syncOutbox(send: Sender, account: string | null): Promise<boolean> {
  passAccount = account;
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    await dropUnowned();
    do {
      again = false;
      const queue = await pendingMessages(passAccount);
      for (const [index, message] of queue.entries()) {
        if (message.status === 'failed') continue;
        if (!(await attempt(message, send))) {
          // The ones behind it wait too: a page that showed them "sending" shows them pending.
          for (const behind of queue.slice(index + 1)) if (behind.status === 'pending') announce({ tempMessageId: behind.tempMessageId, status: 'pending' });
          return true;
        }
      }
    } while (again);
    return false;
  })().finally(() => {
    running = null;
  });
  return running;
}

/**
 * A queued message the server shows it holds under its provider id (the send's answer was lost,
 * say to a reload): it leaves the queue and is announced as sent, so it is never shown twice.
 */
export async function markSent(tempMessageId: string, messageId: string): Promise<void> {
  await (await db()).delete('pending-messages', tempMessageId);
  announce({ tempMessageId, status: 'sent', messageId });
}

/** A manual retry: the failed message starts over with a fresh count, taking the conversation over if asked. */
export async function retryMessage(tempMessageId: string, takeOver = false): Promise<boolean> {
  const queued = await update(tempMessageId, (m) => ({ ...m, retryCount: 0, status: 'pending', failure: undefined, ...(takeOver ? { takeOver } : {}) }));
  if (queued) announce({ tempMessageId, status: 'pending' });
  return queued !== undefined;
}
