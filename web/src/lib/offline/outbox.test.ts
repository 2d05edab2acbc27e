import 'fake-indexeddb/auto';
import { db, type PendingMessage } from './db';
import { CLAIM_LEASE_MS, enqueue, markSent, MAX_RETRIES, type Sender, onOutboxChange, pendingMessages, retryMessage, SendDeferred, syncOutbox, type OutboxChange } from './outbox';
import { json, fakeServer } from '../../testing/fake-server';
import { sendForm, sendFromPage } from './send-message';
import { signInAs } from '../../testing/session';

/** The account that writes these tests' messages (`signInAs('u1', …)`'s). */
const ACCOUNT = 'b1:u1';

const pending = (id: string, at: string, extra: Partial<PendingMessage> = {}): PendingMessage => ({
  tempMessageId: id,
  account: ACCOUNT,
  to: '15550001',
  phoneNumber: '15550001',
  phoneNumberId: 'pnid',
  message_type: 'text',
  text: `text ${id}`,
  originalTimestamp: at,
  conversation_id: 'pnid_15550001',
  senderName: 'You',
  retryCount: 0,
  status: 'pending',
  ...extra,
});

/** A stand-in for the server: records the message_id of every attempt, refuses while told to. */
function server(refuse: (id: string) => boolean = () => false) {
  const attempts: string[] = [];
  const send = vi.fn<Sender>(async (message) => {
    const id = sendForm(message).get('message_id') as string;
    attempts.push(id);
    if (refuse(id)) throw new Error('500');
    return `wamid.${id}`;
  });
  return { attempts, send };
}

beforeEach(async () => {
  await (await db()).clear('pending-messages');
});

describe('the outbox', () => {
  it('sends in the order the messages were written, each under its temporary id, and empties the queue', async () => {
    await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    await enqueue(pending('c', '2026-01-01T10:00:03.000Z'));
    const { attempts, send } = server();
    const changes: OutboxChange[] = [];
    const stop = onOutboxChange((change) => changes.push(change));

    expect(await syncOutbox(send, ACCOUNT)).toBe(false);
    stop();

    expect(attempts).toEqual(['a', 'b', 'c']);
    expect(await pendingMessages(ACCOUNT)).toEqual([]);
    expect(changes.filter((change) => change.status === 'sent')).toEqual([
      { tempMessageId: 'a', status: 'sent', messageId: 'wamid.a' },
      { tempMessageId: 'b', status: 'sent', messageId: 'wamid.b' },
      { tempMessageId: 'c', status: 'sent', messageId: 'wamid.c' },
    ]);
  });

  it('counts each refused attempt, keeps later messages behind it, and marks it failed at 3', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
    const { attempts, send } = server((id) => id === 'a');

    expect(await syncOutbox(send, ACCOUNT)).toBe(true);
    expect(attempts).toEqual(['a']);
    expect(await pendingMessages(ACCOUNT)).toMatchObject([
      { tempMessageId: 'a', retryCount: 1, status: 'pending' },
      { tempMessageId: 'b', retryCount: 0, status: 'pending' },
    ]);

    await syncOutbox(send, ACCOUNT);
    const changes: OutboxChange[] = [];
    const stop = onOutboxChange((change) => changes.push(change));
    expect(await syncOutbox(send, ACCOUNT)).toBe(false);
    stop();

    // The third refusal fails it; a failed message no longer holds the queue back.
    expect(MAX_RETRIES).toBe(3);
    expect(attempts).toEqual(['a', 'a', 'a', 'b']);
    expect(changes).toContainEqual({ tempMessageId: 'a', status: 'failed', retryCount: 3 });
    expect(await pendingMessages(ACCOUNT)).toMatchObject([{ tempMessageId: 'a', retryCount: 3, status: 'failed' }]);

    // Later syncs leave it alone until a manual retry.
    await syncOutbox(send, ACCOUNT);
    expect(attempts).toHaveLength(4);
  });

  it('sends a failed message again after a manual retry, under the same id', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z', { retryCount: 3, status: 'failed' }));
    const { attempts, send } = server();

    expect(await retryMessage('a')).toBe(true);
    expect(await pendingMessages(ACCOUNT)).toMatchObject([{ tempMessageId: 'a', retryCount: 0, status: 'pending' }]);
    await syncOutbox(send, ACCOUNT);

    expect(attempts).toEqual(['a']);
    expect(await pendingMessages(ACCOUNT)).toEqual([]);
    expect(await retryMessage('a')).toBe(false);
  });

  it('does not count a send that never reached the server', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    const send = vi.fn<Sender>(async () => {
      throw new SendDeferred('offline');
    });

    expect(await syncOutbox(send, ACCOUNT)).toBe(true);
    expect(await syncOutbox(send, ACCOUNT)).toBe(true);

    expect(send).toHaveBeenCalledTimes(2);
    expect(await pendingMessages(ACCOUNT)).toMatchObject([{ tempMessageId: 'a', retryCount: 0, status: 'pending' }]);
  });

  it('tells the messages behind one that could not reach the server that they wait', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
    const changes: OutboxChange[] = [];
    const stop = onOutboxChange((change) => changes.push(change));
    const send = vi.fn<Sender>(() => Promise.reject(new SendDeferred('network unreachable')));

    expect(await syncOutbox(send, ACCOUNT)).toBe(true);
    stop();
    expect(send).toHaveBeenCalledTimes(1);
    expect(changes.filter((change) => change.tempMessageId === 'b')).toEqual([{ tempMessageId: 'b', status: 'pending' }]);
  });

  it('runs one pass at a time and picks up what was queued during it', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    const attempts: string[] = [];
    const send = async (message: PendingMessage): Promise<string> => {
      attempts.push(message.tempMessageId);
      if (message.tempMessageId === 'a') {
        await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
        void syncOutbox(send, ACCOUNT);
      }
      return 'wamid';
    };

    await syncOutbox(send, ACCOUNT);

    expect(attempts).toEqual(['a', 'b']);
  });

  it('leaves a message another sender is sending to it, and takes over a claim that lapsed', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z', { status: 'sending', claimedAt: Date.now() }));
    await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
    const { attempts, send } = server();

    expect(await syncOutbox(send, ACCOUNT)).toBe(true);
    expect(attempts).toEqual([]);

    await enqueue(pending('a', '2026-01-01T10:00:01.000Z', { status: 'sending', claimedAt: Date.now() - CLAIM_LEASE_MS }));
    expect(await syncOutbox(send, ACCOUNT)).toBe(false);
    expect(attempts).toEqual(['a', 'b']);
  });

  it('leaves alone a message another sender (the service worker) already delivered', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    const send = vi.fn<Sender>(async () => {
      await (await db()).delete('pending-messages', 'a');
      throw new Error('answer lost');
    });

    await syncOutbox(send, ACCOUNT);

    expect(await pendingMessages(ACCOUNT)).toEqual([]);
  });

  it('takes a claimed message the server shows it holds out of the queue, so the messages behind it go', async () => {
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z', { status: 'sending', claimedAt: Date.now() }));
    await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
    const changes: OutboxChange[] = [];
    const stop = onOutboxChange((change) => changes.push(change));

    await markSent('a', 'wamid.a');
    stop();
    const { attempts, send } = server();
    expect(await syncOutbox(send, ACCOUNT)).toBe(false);

    expect(changes).toEqual([{ tempMessageId: 'a', status: 'sent', messageId: 'wamid.a' }]);
    expect(attempts).toEqual(['b']);
  });
});

describe('the outbox of each account', () => {
  const OTHER = 'b2:u2';

  it('shows and sends each account only its own messages, so another account\'s never blocks it', async () => {
    // The other account's message stays pending (its sends never reach the server)...
    await enqueue(pending('theirs', '2026-01-01T10:00:01.000Z', { account: OTHER }));
    await enqueue(pending('mine', '2026-01-01T10:00:02.000Z'));
    const { attempts, send } = server();

    // ...yet it is neither seen nor tried by this account, whose message goes at once.
    expect((await pendingMessages(ACCOUNT)).map((m) => m.tempMessageId)).toEqual(['mine']);
    expect(await syncOutbox(send, ACCOUNT)).toBe(false);
    expect(attempts).toEqual(['mine']);
    expect(await pendingMessages(null)).toEqual([]);

    // It waits for its own account.
    expect((await pendingMessages(OTHER)).map((m) => m.tempMessageId)).toEqual(['theirs']);
    expect(await syncOutbox(send, OTHER)).toBe(false);
    expect(attempts).toEqual(['mine', 'theirs']);
  });

  it('drops messages queued before they named an account instead of sending them', async () => {
    const { account: _, ...unowned } = pending('old', '2026-01-01T10:00:01.000Z');
    await (await db()).put('pending-messages', unowned as PendingMessage);
    await enqueue(pending('mine', '2026-01-01T10:00:02.000Z'));
    const { attempts, send } = server();

    expect(await syncOutbox(send, ACCOUNT)).toBe(false);

    expect(attempts).toEqual(['mine']);
    expect(await (await db()).count('pending-messages')).toBe(0);
  });

  it('does not send a message with the token of another signed-in account', async () => {
    const forms: FormData[] = [];
    fakeServer({
      'POST /api/send-message': ({ body }) => {
        forms.push(body as FormData);
        return json({ status: 'success', response: { messages: [{ id: 'wamid.x' }] } });
      },
    });
    signInAs('u2', 'admin', 'b2');

    await expect(sendFromPage(pending('a', '2026-01-01T10:00:01.000Z'))).rejects.toBeInstanceOf(SendDeferred);
    expect(forms).toHaveLength(0);
  });
});

describe('the send-message form', () => {
  it('carries the spec fields, with the temporary id as message_id', () => {
    const text = sendForm(pending('tmp-1', '2026-01-01T10:00:01.000Z'));
    expect(Object.fromEntries(text.entries())).toEqual({
      to: '15550001',
      message_id: 'tmp-1',
      phoneNumber: '15550001',
      phoneNumberId: 'pnid',
      message_type: 'text',
      text: 'text tmp-1',
    });
    const file = new File(['%PDF'], 'offer.pdf', { type: 'application/pdf' });
    const media = sendForm(pending('tmp-2', '2026-01-01T10:00:01.000Z', { message_type: 'document', text: undefined, file, filename: 'offer.pdf', caption: 'Our offer' }));
    expect(media.get('message_id')).toBe('tmp-2');
    expect(media.get('caption')).toBe('Our offer');
    expect(media.get('filename')).toBe('offer.pdf');
    expect((media.get('file') as File).name).toBe('offer.pdf');
    expect(media.has('text')).toBe(false);
  });

  it('fails a message at once when a teammate holds the conversation, and sends it with take_over when the user agrees', async () => {
    const forms: FormData[] = [];
    fakeServer({
      'POST /api/send-message': ({ body }) => {
        const form = body as FormData;
        forms.push(form);
        if (form.get('take_over') === 'true') return json({ status: 'success', response: { messages: [{ id: 'wamid.a' }] } });
        return json({ detail: 'Assigned to Bo', message: 'Assigned to Bo', code: 'assigned_to_other', assignee: { id: 'u2', name: 'Bo' } }, 409);
      },
    });
    signInAs('u1', 'admin');
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    const changes: OutboxChange[] = [];
    const stop = onOutboxChange((change) => changes.push(change));

    expect(await syncOutbox(sendFromPage, ACCOUNT)).toBe(false);
    expect(changes.at(-1)).toMatchObject({ tempMessageId: 'a', status: 'failed', retryCount: 1, heldBy: { id: 'u2', name: 'Bo' } });
    expect(forms).toHaveLength(1);

    expect(await retryMessage('a', true)).toBe(true);
    await syncOutbox(sendFromPage, ACCOUNT);
    stop();
    expect(forms.map((form) => form.get('take_over'))).toEqual([null, 'true']);
    expect(changes.at(-1)).toEqual({ tempMessageId: 'a', status: 'sent', messageId: 'wamid.a' });
    expect(await pendingMessages(ACCOUNT)).toEqual([]);
  });

  it('fails a message the server refuses for good at once, with its reason, and lets the next one go', async () => {
    const WINDOW_CLOSED = 'The 24-hour reply window with this customer is closed.';
    let posts = 0;
    fakeServer({
      'POST /api/send-message': ({ body }) => {
        posts += 1;
        if ((body as FormData).get('message_id') === 'a') return json({ detail: WINDOW_CLOSED, message: WINDOW_CLOSED, code: 'validation_failed' }, 422);
        return json({ status: 'success', response: { messages: [{ id: 'wamid.b' }] } });
      },
    });
    signInAs('u1', 'admin');
    await enqueue(pending('a', '2026-01-01T10:00:01.000Z'));
    await enqueue(pending('b', '2026-01-01T10:00:02.000Z'));
    const changes: OutboxChange[] = [];
    const stop = onOutboxChange((change) => changes.push(change));

    expect(await syncOutbox(sendFromPage, ACCOUNT)).toBe(false);
    await syncOutbox(sendFromPage, ACCOUNT);
    expect(posts).toBe(2);
    expect(changes.find((change) => change.tempMessageId === 'a' && change.status === 'failed')).toMatchObject({ failure: WINDOW_CLOSED });
    expect(await pendingMessages(ACCOUNT)).toMatchObject([{ tempMessageId: 'a', status: 'failed', failure: WINDOW_CLOSED }]);

    expect(await retryMessage('a')).toBe(true);
    stop();
    expect((await pendingMessages(ACCOUNT))[0]?.failure).toBeUndefined();
  });
});
