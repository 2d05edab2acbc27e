import { describe, expect, it } from 'vitest';
import type { Message } from '../../lib/api/types';
import { contextOf, nextReaction, reactionsOf } from './reply-context';

const message = (overrides: Partial<Message> = {}): Message => ({
  message_id: 'wamid.1',
  timestamp: '2026-11-24T10:00:00.000Z',
  status: 'delivered',
  direction: 'incoming',
  type: 'text',
  content: { text: 'Is the blue one in stock?' },
  ...overrides,
});

describe('reply context', () => {
  it('quotes a text by its words, a file by its caption and a captionless document by its name', () => {
    expect(contextOf(message())).toEqual({
      id: 'wamid.1',
      quoted: { type: 'text', text: 'Is the blue one in stock?', direction: 'incoming' },
    });
    const photo = message({ type: 'image', direction: 'outgoing', content: { caption: 'This one', image: { media_url: '/api/media/x' } } });
    expect(contextOf(photo).quoted).toEqual({ type: 'image', text: 'This one', direction: 'outgoing' });
    expect(contextOf(message({ type: 'image', content: {} })).quoted?.text).toBeNull();
    const file = message({ type: 'document', content: { document: { media_url: '/api/media/y', filename: 'invoice-42.pdf' } } });
    expect(contextOf(file).quoted?.text).toBe('invoice-42.pdf');
    const captioned = message({ type: 'document', content: { caption: 'Your invoice', document: { filename: 'a.pdf' } } });
    expect(contextOf(captioned).quoted?.text).toBe('Your invoice');
  });

  it('shows each side’s emoji once, and choosing ours again takes it off', () => {
    const both = message({ content: { text: 'hi', reactions: { customer: '❤️', business: '👍' } } });
    expect(reactionsOf(both)).toEqual(['❤️', '👍']);
    expect(reactionsOf(message({ content: { reactions: { customer: '👍', business: '👍' } } }))).toEqual(['👍']);
    expect(reactionsOf(message())).toEqual([]);
    expect(nextReaction(both, '👍')).toBe('');
    expect(nextReaction(both, '🙏')).toBe('🙏');
  });
});
