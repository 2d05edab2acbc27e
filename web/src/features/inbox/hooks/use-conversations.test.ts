import type { Conversation, Message } from '../../../lib/api/types';
import { applyListEvent, type ConversationsState, withFirstPage } from './use-conversations';

const row = (phone: string, unread = 0): Conversation => ({
  phone_number: phone,
  name: phone,
  conversation_id: `pn_${phone}`,
  last_message_content: null,
  last_message_timestamp: null,
  last_incoming_timestamp: null,
  unread_count: unread,
});

const state = (items: Conversation[]): ConversationsState => ({
  items,
  hasMore: false,
  loading: false,
  loadingMore: false,
  failed: false,
  totalUnread: 0,
});

const notification = (phone: string, unread: number, total: number) =>
  ({
    event: 'notification',
    data: {
      conversation_id: `pn_${phone}`,
      phone_number: phone,
      name: 'Cora',
      preview: 'hello',
      unread_count: unread,
      total_unread: total,
      last_message_timestamp: '2026-01-01T10:00:00Z',
    },
  }) as const;

describe('live chat list updates', () => {
  it('moves the notified conversation to the top with its preview and counts', () => {
    const next = applyListEvent(state([row('1'), row('2')]), notification('2', 3, 7), false);
    expect(next.items.map((item) => item.phone_number)).toEqual(['2', '1']);
    expect(next.items[0]).toMatchObject({ name: 'Cora', unread_count: 3, last_message_content: { text: 'hello' } });
    expect(next.totalUnread).toBe(7);
  });

  it('keeps the preview and time when a read only changes the counts', () => {
    const read = { event: 'notification', data: { conversation_id: 'pn_2', phone_number: '2', name: 'Cora', unread_count: 0, total_unread: 0 } } as const;
    const next = applyListEvent(applyListEvent(state([row('1'), row('2')]), notification('2', 3, 3), false), read, false);
    expect(next.items[0]).toMatchObject({ unread_count: 0, last_message_content: { text: 'hello' }, last_message_timestamp: '2026-01-01T10:00:00Z' });
  });

  it('adds an unknown conversation unless a search is showing', () => {
    expect(applyListEvent(state([row('1')]), notification('9', 1, 1), false).items).toHaveLength(2);
    expect(applyListEvent(state([row('1')]), notification('9', 1, 1), true).items).toHaveLength(1);
  });

  it('records the last incoming time for the reply window', () => {
    const message = {
      message_id: 'm',
      timestamp: '2026-01-01T11:00:00Z',
      status: 'read',
      direction: 'incoming',
      type: 'text',
      content: { text: 'hi' },
    } as const;
    const next = applyListEvent(
      state([row('1')]),
      { event: 'new_message', data: { conversation_id: 'pn_1', phone_number: '1', name: null, message } },
      false,
    );
    expect(next.items[0]).toMatchObject({ last_incoming_timestamp: '2026-01-01T11:00:00Z', last_message_content: { text: 'hi' } });
  });

  it('keeps a conversation that arrived live while the first page was loading', () => {
    const live = applyListEvent(state([]), notification('9', 1, 1), false).items;
    expect(withFirstPage(live, [row('1'), row('2')]).map((item) => item.phone_number)).toEqual(['9', '1', '2']);
    expect(withFirstPage(live, [row('9', 1), row('1')]).map((item) => item.phone_number)).toEqual(['9', '1']);
  });

  const bsuidRow = (id: string, extra: Partial<Conversation> = {}): Conversation => ({
    ...row(id),
    phone_number: null,
    user_id: id,
    username: '@sheena',
    name: null,
    conversation_id: `pn_${id}`,
    ...extra,
  });

  it('moves a username customer (no phone, BSUID key) on a notification by its conversation id', () => {
    const data = { conversation_id: 'pn_US.134', phone_number: null, name: 'Sheena', preview: 'hi', unread_count: 1, total_unread: 1 };
    const next = applyListEvent(state([row('1'), bsuidRow('US.134')]), { event: 'notification', data }, false);
    expect(next.items[0]).toMatchObject({ user_id: 'US.134', phone_number: null, name: 'Sheena', unread_count: 1 });
    expect(next.items).toHaveLength(2);
  });

  it('adds a username customer from new_contact with its username and no phone', () => {
    const data = { phone_number: null, user_id: 'US.77', username: '@cora', name: null, conversation_id: 'pn_US.77' };
    const next = applyListEvent(state([row('1')]), { event: 'new_contact', data }, false);
    expect(next.items[0]).toMatchObject({ phone_number: null, user_id: 'US.77', username: '@cora', conversation_id: 'pn_US.77' });
  });

  it('merges the row of a previous key into the customer’s new one', () => {
    const old = bsuidRow('US.134', { unread_count: 2, last_message_timestamp: '2026-01-02T10:00:00Z' });
    const data = {
      phone_number: '16505551234',
      user_id: 'US.134',
      username: '@sheena',
      name: 'Sheena',
      conversation_id: 'pn_16505551234',
      previous_phone_number: 'US.134',
    };
    const next = applyListEvent(state([row('1'), old, row('16505551234')]), { event: 'new_contact', data }, false);
    expect(next.items).toHaveLength(2);
    expect(next.items[0]).toMatchObject({ phone_number: '16505551234', user_id: 'US.134', name: 'Sheena', unread_count: 2, conversation_id: 'pn_16505551234' });
  });

  it('updates the preview when the newest message is deleted, not when an older one is', () => {
    const message = {
      message_id: 'm',
      timestamp: '2026-01-01T11:00:00Z',
      status: 'received',
      direction: 'incoming',
      type: 'text',
      content: { text: null, revoked: true },
      revoked_at: '2026-01-01T11:05:00Z',
    } as unknown as Message;
    const newest = { ...row('1'), last_message_timestamp: '2026-01-01T11:00:00Z', last_message_content: { text: 'oops' } };
    const updated = { event: 'message_updated', data: { conversation_id: 'pn_1', phone_number: '1', message } } as const;
    expect(applyListEvent(state([newest]), updated, false).items[0]?.last_message_content).toEqual({ text: null, caption: null, revoked: true });
    const older = { ...newest, last_message_timestamp: '2026-01-01T12:00:00Z' };
    expect(applyListEvent(state([older]), updated, false).items[0]?.last_message_content).toEqual({ text: 'oops' });
  });
});
