import { screen, within } from '@testing-library/react';
import type { Conversation } from '../../../lib/api/types';
import { renderWithApp, testI18n } from '../../../testing/render';
import { ConversationRow } from './conversation-row';

const LONG: Conversation = {
  phone_number: '+16505551234',
  name: 'N'.repeat(100),
  conversation_id: 'pn_16505551234',
  last_message_content: { text: 'x'.repeat(300) },
  last_message_timestamp: '2026-01-01T10:00:00Z',
  last_incoming_timestamp: '2026-01-01T10:00:00Z',
  unread_count: 4,
};

describe('chat list row', () => {
  it('keeps the time and unread badge beside a long name and preview, which truncate', () => {
    renderWithApp(<ConversationRow conversation={LONG} query="" selected={false} onSelect={() => undefined} t={testI18n.t} />);
    const row = screen.getByRole('button', { name: LONG.name ?? '' });
    expect(row.querySelector('time')).toHaveAttribute('dateTime', '2026-01-01T10:00:00Z');
    expect(within(row).getByLabelText('4 unread')).toHaveTextContent('4');
    for (const part of ['.row-name', '.row-preview', '.row-phone']) expect(row.querySelector(part)).toBeInTheDocument();
  });

  it('names its first two labels and counts the others, named in their chip\'s title', () => {
    const labels = ['Billing', 'VIP', 'Returns', 'Wholesale'].map((name, i) => ({ id: `l${i}`, name, color: '#123456' }));
    renderWithApp(<ConversationRow conversation={{ ...LONG, labels }} query="" selected={false} onSelect={() => undefined} t={testI18n.t} />);
    const list = within(screen.getByRole('button', { name: LONG.name ?? '' })).getByRole('list', { name: 'Labels' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Billing', 'VIP', '+2']);
    expect(within(list).getByLabelText('2 more labels')).toHaveAttribute('title', 'Returns, Wholesale');
  });

  it('shows every label when there are two or fewer', () => {
    const labels = ['Billing', 'VIP'].map((name, i) => ({ id: `l${i}`, name, color: '#123456' }));
    renderWithApp(<ConversationRow conversation={{ ...LONG, labels }} query="" selected={false} onSelect={() => undefined} t={testI18n.t} />);
    const list = within(screen.getByRole('button', { name: LONG.name ?? '' })).getByRole('list', { name: 'Labels' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Billing', 'VIP']);
  });

  it('isolates the phone as a left-to-right run, whatever the page direction', () => {
    renderWithApp(<ConversationRow conversation={LONG} query="" selected={false} onSelect={() => undefined} t={testI18n.t} />);
    const phone = screen.getByText('+16505551234');
    expect(phone.closest('bdi')).toHaveAttribute('dir', 'ltr');
    expect(phone.closest('.row-phone')).not.toHaveAttribute('dir');
  });
});

describe('chat list row preview', () => {
  const row = (conversation: Conversation) => {
    renderWithApp(<ConversationRow conversation={conversation} query="" selected={false} onSelect={() => undefined} t={testI18n.t} />);
    return screen.getByRole('button', { name: LONG.name ?? '' }).querySelector('.row-preview');
  };

  it('says "Message" for a last message without text or caption (a picture, a sticker, a contact card)', () => {
    expect(row({ ...LONG, last_message_content: { text: null, caption: null } })).toHaveTextContent(/^Message$/);
  });

  it('says "No messages yet" only when there is no last message', () => {
    expect(row({ ...LONG, last_message_content: null, last_message_timestamp: null })).toHaveTextContent(/^No messages yet$/);
  });
});
