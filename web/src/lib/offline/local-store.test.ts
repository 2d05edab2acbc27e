import 'fake-indexeddb/auto';
import type { Conversation, Message } from '../api/types';
import { db } from './db';
import { clearLocalStores, saveConversations, savedConversations, saveMessages, savedMessages } from './local-store';
import { enqueue, pendingMessages } from './outbox';

const row = (phone: string, name: string, at: string): Conversation => ({
  phone_number: phone,
  name,
  conversation_id: `pnid_${phone}`,
  last_message_content: null,
  last_message_timestamp: at,
  last_incoming_timestamp: null,
  unread_count: 0,
});

const message = (id: string, at: string): Message => ({
  message_id: id,
  timestamp: at,
  status: 'delivered',
  direction: 'incoming',
  type: 'text',
  content: { text: id },
});

describe('the saved data', () => {
  it('answers the saved list newest first, searched by name or phone', async () => {
    await saveConversations([row('111', 'Ann', '2026-01-01T10:00:00.000Z'), row('222', 'Bob', '2026-01-02T10:00:00.000Z')]);
    await saveConversations([row('333', 'Annabel', '2026-01-03T10:00:00.000Z')]);

    expect((await savedConversations('')).map((r) => r.phone_number)).toEqual(['333', '222', '111']);
    expect((await savedConversations('ann')).map((r) => r.phone_number)).toEqual(['333', '111']);
    expect((await savedConversations('22')).map((r) => r.phone_number)).toEqual(['222']);
  });

  it('keeps a username customer without a phone, found by username, and gives it back without one', async () => {
    const sheena = { ...row('x', 'Sheena', '2026-01-04T10:00:00.000Z'), phone_number: null, user_id: 'US.134', username: '@realsheena', conversation_id: 'pnid_US.134' };
    await saveConversations([sheena]);

    expect(await savedConversations('@realsheena')).toEqual([sheena]);
  });

  it('answers a conversation’s saved messages oldest first, and no other conversation’s', async () => {
    await saveMessages('pnid_111', [message('b', '2026-01-01T10:00:02.000Z'), message('a', '2026-01-01T10:00:01.000Z')]);
    await saveMessages('pnid_222', [message('c', '2026-01-01T10:00:03.000Z')]);

    expect((await savedMessages('pnid_111')).map((m) => m.message_id)).toEqual(['a', 'b']);
  });

  it('forgets everything of the account at sign-out', async () => {
    await saveConversations([row('111', 'Ann', '2026-01-01T10:00:00.000Z')]);
    await saveMessages('pnid_111', [message('a', '2026-01-01T10:00:01.000Z')]);
    await enqueue({ tempMessageId: 't', account: 'b1:u1', to: '111', phoneNumber: '111', phoneNumberId: 'pnid', message_type: 'text', text: 'x', originalTimestamp: '2026-01-01T10:00:00.000Z', senderName: 'You', retryCount: 0, status: 'pending' });
    await (await db()).put('media', { url: '/api/media/1', blob: await new Response('x').blob() });

    await clearLocalStores();

    expect(await savedConversations('')).toEqual([]);
    expect(await savedMessages('pnid_111')).toEqual([]);
    expect(await pendingMessages('b1:u1')).toEqual([]);
    expect(await (await db()).count('media')).toBe(0);
  });
});
