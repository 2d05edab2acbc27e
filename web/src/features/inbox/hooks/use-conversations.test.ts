import type { Conversation, Message } from '../../../lib/api/types';
import type { ListView } from '../list-view';
import { applyListEvent, type ConversationsState, withFirstPage, withNextPage } from './use-conversations';

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

const view = (overrides: Partial<ListView> = {}): ListView => ({ filter: { assignee: 'all', status: 'open' }, searching: false, me: 'u1', ...overrides });
const ALL = view();
const SEARCHING = view({ searching: true });

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
    const next = applyListEvent(state([row('1'), row('2')]), notification('2', 3, 7), ALL);
    expect(next.items.map((item) => item.phone_number)).toEqual(['2', '1']);
    expect(next.items[0]).toMatchObject({ name: 'Cora', unread_count: 3, last_message_content: { text: 'hello' } });
    expect(next.totalUnread).toBe(7);
  });

  it('keeps the preview and time when a read only changes the counts', () => {
    const read = { event: 'notification', data: { conversation_id: 'pn_2', phone_number: '2', name: 'Cora', unread_count: 0, total_unread: 0 } } as const;
    const next = applyListEvent(applyListEvent(state([row('1'), row('2')]), notification('2', 3, 3), ALL), read, ALL);
    expect(next.items[0]).toMatchObject({ unread_count: 0, last_message_content: { text: 'hello' }, last_message_timestamp: '2026-01-01T10:00:00Z' });
  });

  // A read mark leaves nothing unread; a customer's deletion of an unread message only lowers the
  // count. Neither names a message, so neither is a reason to move up or to bring a row in.
  it.each([
    ['a read mark', 0],
    ['a deleted unread message', 1],
  ])('leaves a conversation where it stands on %s', (_, unread) => {
    const counts = { event: 'notification', data: { conversation_id: 'pn_3', phone_number: '3', name: 'Cora', unread_count: unread, total_unread: 1 } } as const;
    const next = applyListEvent(state([row('1', 1), row('2'), row('3', 2)]), counts, ALL);
    expect(next.items.map((item) => item.phone_number)).toEqual(['1', '2', '3']);
    expect(next.items[2]).toMatchObject({ unread_count: unread });
    expect(next.totalUnread).toBe(1);
    const elsewhere = { ...counts, data: { ...counts.data, phone_number: '9', conversation_id: 'pn_9' } };
    expect(applyListEvent(state([row('1')]), elsewhere, ALL).items).toHaveLength(1);
  });

  it('drops a deleted conversation and takes the unread total left', () => {
    const deleted = { event: 'contact_deleted', data: { conversation_id: 'pn_2', phone_number: '2', total_unread: 1 } } as const;
    const next = applyListEvent({ ...state([row('1', 1), row('2', 3)]), totalUnread: 4 }, deleted, ALL);
    expect(next.items.map((item) => item.phone_number)).toEqual(['1']);
    expect(next.totalUnread).toBe(1);
  });

  it('adds an unknown conversation unless a search is showing', () => {
    expect(applyListEvent(state([row('1')]), notification('9', 1, 1), ALL).items).toHaveLength(2);
    expect(applyListEvent(state([row('1')]), notification('9', 1, 1), SEARCHING).items).toHaveLength(1);
  });

  it('adds no conversation for a read mark: opening a snoozed or resolved one does not put it in the open list', () => {
    expect(applyListEvent(state([row('1')]), notification('9', 0, 0), ALL).items.map((item) => item.phone_number)).toEqual(['1']);
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
      ALL,
    );
    expect(next.items[0]).toMatchObject({ last_incoming_timestamp: '2026-01-01T11:00:00Z', last_message_content: { text: 'hi' } });
    // A notice about the customer shows as the preview but leaves the reply window where it was.
    const notice = { ...message, message_id: 'n', timestamp: '2026-01-01T12:00:00Z', type: 'system', content: { text: 'New number' } } as const;
    const after = applyListEvent(next, { event: 'new_message', data: { conversation_id: 'pn_1', phone_number: '1', name: null, message: notice } }, ALL);
    expect(after.items[0]).toMatchObject({ last_incoming_timestamp: '2026-01-01T11:00:00Z', last_message_content: { text: 'New number' } });
  });

  it('keeps a conversation that arrived live while the first page was loading', () => {
    const live = applyListEvent(state([]), notification('9', 1, 1), ALL).items;
    expect(withFirstPage(live, [row('1'), row('2')]).map((item) => item.phone_number)).toEqual(['9', '1', '2']);
    expect(withFirstPage(live, [row('9', 1), row('1')]).map((item) => item.phone_number)).toEqual(['9', '1']);
  });

  it('appends a further page without the rows the list already holds', () => {
    const items = [row('3'), row('1'), row('2')];
    const next = withNextPage(items, [row('2'), row('4'), row('5')]);
    expect(next.map((item) => item.phone_number)).toEqual(['3', '1', '2', '4', '5']);
    expect(next[2]).toBe(items[2]);
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
    const data = {
      conversation_id: 'pn_US.134',
      phone_number: null,
      name: 'Sheena',
      preview: 'hi',
      unread_count: 1,
      total_unread: 1,
      last_message_timestamp: '2026-01-01T10:00:00Z',
    };
    const next = applyListEvent(state([row('1'), bsuidRow('US.134')]), { event: 'notification', data }, ALL);
    expect(next.items[0]).toMatchObject({ user_id: 'US.134', phone_number: null, name: 'Sheena', unread_count: 1 });
    expect(next.items).toHaveLength(2);
  });

  it('adds a username customer from new_contact with its username and no phone', () => {
    const data = { phone_number: null, user_id: 'US.77', username: '@cora', name: null, conversation_id: 'pn_US.77' };
    const next = applyListEvent(state([row('1')]), { event: 'new_contact', data }, ALL);
    expect(next.items[0]).toMatchObject({ phone_number: null, user_id: 'US.77', username: '@cora', conversation_id: 'pn_US.77' });
  });

  it('renames a held row in place on a renamed new_contact, keeping its ids, and adds no row for one it does not hold', () => {
    const held = { ...row('16505551234'), user_id: 'US.134', username: '@sheena', unread_count: 2 };
    const renamed = (phone: string, name: string) =>
      ({ event: 'new_contact', data: { phone_number: phone, user_id: null, username: null, name, conversation_id: `pn_${phone}`, renamed: true } }) as const;
    const next = applyListEvent(state([row('1'), held]), renamed('16505551234', 'Sheena Nelson'), ALL);
    expect(next.items.map((item) => item.phone_number)).toEqual(['1', '16505551234']);
    expect(next.items[1]).toMatchObject({ name: 'Sheena Nelson', user_id: 'US.134', username: '@sheena', unread_count: 2 });
    const elsewhere = applyListEvent(next, renamed('4915112345678', 'Ada'), ALL);
    expect(elsewhere.items).toEqual(next.items);
  });

  it('takes the BSUID and username a renamed new_contact names', () => {
    const data = { phone_number: '16505551234', user_id: 'US.134', username: '@sheena', name: 'Sheena', conversation_id: 'pn_16505551234', renamed: true };
    const next = applyListEvent(state([row('1'), row('16505551234')]), { event: 'new_contact', data }, ALL);
    expect(next.items[1]).toMatchObject({ name: 'Sheena', user_id: 'US.134', username: '@sheena' });
    expect(next.items[0]).toEqual(row('1'));
  });

  it('merges the row of a previous key into the customer’s new one', () => {
    const vip = { id: 'l1', name: 'VIP', color: '#0E8A16' };
    const refund = { id: 'l2', name: 'Refund', color: '#D93F0B' };
    const old = bsuidRow('US.134', { unread_count: 2, last_message_timestamp: '2026-01-02T10:00:00Z', labels: [vip, refund] });
    const data = {
      phone_number: '16505551234',
      user_id: 'US.134',
      username: '@sheena',
      name: 'Sheena',
      conversation_id: 'pn_16505551234',
      previous_phone_number: 'US.134',
    };
    const current = { ...row('16505551234'), labels: [refund] };
    const next = applyListEvent(state([row('1'), old, current]), { event: 'new_contact', data }, ALL);
    expect(next.items).toHaveLength(2);
    expect(next.items[0]).toMatchObject({ phone_number: '16505551234', user_id: 'US.134', name: 'Sheena', unread_count: 2, conversation_id: 'pn_16505551234' });
    expect(next.items[0]?.labels).toEqual([vip, refund]);
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
    expect(applyListEvent(state([newest]), updated, ALL).items[0]?.last_message_content).toEqual({ text: null, caption: null, revoked: true });
    const older = { ...newest, last_message_timestamp: '2026-01-01T12:00:00Z' };
    expect(applyListEvent(state([older]), updated, ALL).items[0]?.last_message_content).toEqual({ text: 'oops' });
  });
});

describe('team changes in the chat list', () => {
  const updated = (phone: string, assignee: { id: string; name: string } | null, status: 'open' | 'resolved' = 'open') =>
    ({
      event: 'conversation_updated',
      data: { conversation_id: `pn_${phone}`, phone_number: phone, status, snoozed_until: null, assignee, by: { id: 'u2', name: 'Bo' } },
    }) as const;
  const mine = view({ filter: { assignee: 'me', status: 'open' } });
  const unassigned = view({ filter: { assignee: 'unassigned', status: 'open' } });

  it('shows the new holder on the All tab', () => {
    const next = applyListEvent(state([row('1'), row('2')]), updated('2', { id: 'u2', name: 'Bo' }), ALL);
    expect(next.items[1]).toMatchObject({ phone_number: '2', assignee: { name: 'Bo' }, status: 'open' });
  });

  it('takes a conversation someone claimed off the Unassigned tab', () => {
    const next = applyListEvent(state([row('1'), row('2')]), updated('2', { id: 'u2', name: 'Bo' }), unassigned);
    expect(next.items.map((item) => item.phone_number)).toEqual(['1']);
  });

  it('takes a resolved conversation off the open list and one given away off Mine', () => {
    const held = { ...row('1'), assignee: { id: 'u1', name: 'Me' } };
    expect(applyListEvent(state([held]), updated('1', { id: 'u1', name: 'Me' }, 'resolved'), mine).items).toEqual([]);
    expect(applyListEvent(state([held]), updated('1', { id: 'u2', name: 'Bo' }), mine).items).toEqual([]);
    expect(applyListEvent(state([held]), updated('1', { id: 'u1', name: 'Me' }), mine).items).toHaveLength(1);
  });

  it('adds a conversation first heard of only where new conversations belong', () => {
    expect(applyListEvent(state([]), notification('9', 1, 1), unassigned).items).toHaveLength(1);
    expect(applyListEvent(state([]), notification('9', 1, 1), mine).items).toHaveLength(0);
    expect(applyListEvent(state([]), notification('9', 1, 1), view({ filter: { assignee: 'all', status: 'resolved' } })).items).toHaveLength(0);
  });

  it('finds a username customer (no phone) by its key when a teammate takes it', () => {
    const sheena = { ...row('US.134'), phone_number: null, user_id: 'US.134', conversation_id: 'pn_US.134' };
    const data = { conversation_id: 'pn_US.134', phone_number: null, status: 'open', snoozed_until: null, assignee: { id: 'u2', name: 'Bo' }, by: { id: 'u2', name: 'Bo' } } as const;
    const event = { event: 'conversation_updated', data } as const;
    // Another customer without a phone: only the key tells the two apart.
    const cora = { ...sheena, user_id: 'US.77', conversation_id: 'pn_US.77' };
    const all = applyListEvent(state([cora, sheena]), event, ALL);
    expect(all.items[1]).toMatchObject({ user_id: 'US.134', phone_number: null, assignee: { name: 'Bo' } });
    expect(all.items[0]).toEqual(cora);
    expect(applyListEvent(state([cora, sheena]), event, unassigned).items.map((item) => item.user_id)).toEqual(['US.77']);
  });

  it('leaves notes and activity out of the preview', () => {
    const note = { message_id: 'n', timestamp: '2026-01-01T12:00:00Z', status: 'sent', direction: 'internal', type: 'note', content: { text: 'call back' } } as const;
    const before = state([row('1'), row('2')]);
    expect(applyListEvent(before, { event: 'new_message', data: { conversation_id: 'pn_2', phone_number: '2', name: null, message: note } }, ALL)).toBe(before);
  });
});
