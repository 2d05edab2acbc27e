import type { Message } from '../../lib/api/types';
import { applyStatus, applyStatusEvent, confirmSent, lastIncomingTimestamp, mergeMessages, renameConfirmed, replaceMessage } from './messages-state';

const message = (id: string, minute: number, extra: Partial<Message> = {}): Message => ({
  message_id: id,
  timestamp: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
  status: 'sent',
  direction: 'outgoing',
  type: 'text',
  content: { text: id },
  ...extra,
});

describe('message list updates', () => {
  it('merges pages and live messages oldest first without duplicates', () => {
    const merged = mergeMessages([message('b', 2), message('c', 3)], [message('a', 1), message('c', 3)]);
    expect(merged.map((m) => m.message_id)).toEqual(['a', 'b', 'c']);
  });

  it('orders messages of one time by id, as the server pages them', () => {
    const merged = mergeMessages([message('wamid.a', 1), message('wamid.C', 1)], [message('wamid.B', 1), message('wamid.0', 2)]);
    expect(merged.map((m) => m.message_id)).toEqual(['wamid.B', 'wamid.C', 'wamid.a', 'wamid.0']);
  });

  it('never moves a status backwards except to failed', () => {
    const read = applyStatus([message('a', 1)], 'a', 'read');
    expect(applyStatus(read, 'a', 'delivered')[0]?.status).toBe('read');
    expect(applyStatus(read, 'a', 'failed')[0]?.status).toBe('failed');
  });

  it('swaps the temporary id for the provider id once sent', () => {
    const sent = confirmSent([message('tmp-1', 1, { status: 'sending' })], 'tmp-1', 'wamid.1');
    expect(sent).toEqual([expect.objectContaining({ message_id: 'wamid.1', status: 'sent' })]);
  });

  it('keeps the live copy when the event came before the send answer', () => {
    const current = [message('tmp-1', 1, { status: 'sending' }), message('wamid.1', 1, { status: 'delivered' })];
    expect(confirmSent(current, 'tmp-1', 'wamid.1')).toEqual([expect.objectContaining({ message_id: 'wamid.1', status: 'delivered' })]);
  });

  it('takes the provider id from the first status event of a message sent here', () => {
    const current = [message('tmp-1', 1, { status: 'sending' })];
    const sent = applyStatusEvent(current, { message_id: 'wamid.1', client_message_id: 'tmp-1', status: 'sent' });
    expect(applyStatusEvent(sent, { message_id: 'wamid.1', status: 'read' })).toEqual([
      expect.objectContaining({ message_id: 'wamid.1', status: 'read' }),
    ]);
  });

  it('merges a server copy read before the send was confirmed into the confirmed one', () => {
    const shown = confirmSent([message('tmp-1', 1, { status: 'sending' })], 'tmp-1', 'wamid.1');
    const stalePage = [message('a', 0, { direction: 'incoming' }), message('tmp-1', 1, { status: 'sending' })];
    const merged = mergeMessages(shown, renameConfirmed(stalePage, new Map([['tmp-1', 'wamid.1']])));
    expect(merged.map((m) => [m.message_id, m.status])).toEqual([
      ['a', 'sent'],
      ['wamid.1', 'sent'],
    ]);
    expect(mergeMessages(shown, stalePage)).toHaveLength(3);
  });

  it('finds the last incoming message time for the reply window', () => {
    const list = [message('a', 1, { direction: 'incoming' }), message('b', 2)];
    expect(lastIncomingTimestamp(list)).toBe(list[0]?.timestamp);
    expect(lastIncomingTimestamp([message('b', 2)])).toBeNull();
    // A notice about the customer (a new number) is nothing they wrote: the window runs from before it.
    const notice = message('n', 3, { direction: 'incoming', type: 'system', content: { text: 'Sam changed their number' } });
    expect(lastIncomingTimestamp([...list, notice])).toBe(list[0]?.timestamp);
    expect(lastIncomingTimestamp([notice])).toBeNull();
  });

  it('replaces an edited or deleted message whole, keeping its place and a later status', () => {
    const shown = [message('a', 1, { status: 'read', content: { text: 'helo', caption: 'x' } }), message('b', 2)];
    const edited = replaceMessage(shown, message('a', 1, { status: 'sent', content: { text: 'hello' }, edited_at: '2026-01-01T12:05:00.000Z' }));
    expect(edited[0]).toMatchObject({ content: { text: 'hello' }, status: 'read', edited_at: '2026-01-01T12:05:00.000Z' });
    expect(edited[0]?.content.caption).toBeUndefined();
    expect(replaceMessage(shown, message('z', 9))).toEqual(shown);
  });
});
