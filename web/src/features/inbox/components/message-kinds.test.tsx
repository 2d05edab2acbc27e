import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Message } from '../../../lib/api/types';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { renderWithApp } from '../../../testing/render';
import { MessageBubble } from './message-bubble';

const message = (type: string, content: Message['content'], extra: Partial<Message> = {}): Message => ({
  message_id: `m-${type}`,
  timestamp: '2026-03-04T09:05:00Z',
  status: 'delivered',
  direction: 'incoming',
  type: type as Message['type'],
  content,
  ...extra,
});

function show(m: Message, showToast: ShowToast = () => undefined) {
  renderWithApp(<MessageBubble message={m} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} />, showToast);
  return screen.getByRole('article');
}

describe('edited, deleted and echoed messages', () => {
  it('labels an edited message beside its time', () => {
    const bubble = show(message('text', { text: 'See you at 5' }, { edited_at: '2026-03-04T09:07:00.000Z' }));
    expect(within(bubble).getByText('See you at 5')).toBeInTheDocument();
    expect(within(bubble).getByText('Edited')).toBeInTheDocument();
  });

  it('shows only that a deleted message was deleted: no content, no media, no menu', () => {
    const bubble = show(
      message('image', { text: null, revoked: true, image: { media_url: '/api/media/1' } } as unknown as Message['content'], {
        revoked_at: '2026-03-04T09:06:00.000Z',
        edited_at: '2026-03-04T09:05:30.000Z',
      }),
    );
    expect(within(bubble).getByText('This message was deleted')).toBeInTheDocument();
    expect(within(bubble).queryByRole('button')).toBeNull();
    expect(within(bubble).queryByRole('img')).toBeNull();
    expect(within(bubble).queryByText('Edited')).toBeNull();
  });

  it('signs a message sent from the WhatsApp app on the phone with the app, not an agent', () => {
    const bubble = show(message('text', { text: 'On my way', echo: true }, { direction: 'outgoing', status: 'sent', sender_name: 'Agent Ann' }));
    expect(within(bubble).getByText('WhatsApp app')).toBeInTheDocument();
    expect(within(bubble).queryByText('Agent Ann')).toBeNull();
  });
});

describe('cards for the newer kinds', () => {
  it('shows a flow answer with its name, body and readable answers', () => {
    show(
      message('interactive', {
        text: 'Sent',
        interactive: { type: 'nfm_reply', name: 'Book a table', body: 'Sent', response: { flow_token: 't', guests: 4, dishes: ['soup', 'tea'] } },
      }),
    );
    expect(screen.getByText('Book a table')).toBeInTheDocument();
    expect(screen.getByText('guests')).toBeInTheDocument();
    expect(screen.getByText('soup, tea')).toBeInTheDocument();
    expect(screen.queryByText('flow token')).toBeNull();
  });

  it('shows a call permission granted with its expiry, or declined', () => {
    show(message('interactive', { text: null, interactive: { type: 'call_permission_reply', response: 'accept', expiration_timestamp: 1_800_000_000 } } as unknown as Message['content']));
    expect(screen.getByText('Call permission granted')).toBeInTheDocument();
    expect(screen.getByText(/^Until \d\d\/\d\d\/2027 \d\d:\d\d$/)).toBeInTheDocument();
  });

  it('says a call permission given for good is always allowed', () => {
    show(message('interactive', { text: null, interactive: { type: 'call_permission_reply', response: 'accept', is_permanent: true } } as unknown as Message['content']));
    expect(screen.getByText('Call permission granted')).toBeInTheDocument();
    expect(screen.getByText('Always allowed')).toBeInTheDocument();
  });

  it('says when a call permission was declined', () => {
    show(message('interactive', { interactive: { type: 'call_permission_reply', response: 'reject' } }));
    expect(screen.getByText('Call permission declined')).toBeInTheDocument();
  });

  it('shows shared contact cards and copies one', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const showToast = vi.fn<ShowToast>();
    show(
      message('contacts', {
        contacts: [
          {
            name: { formatted_name: 'Omar Haddad', first_name: 'Omar' },
            phones: [{ phone: '+971 50 123 4567', wa_id: '971501234567', type: 'CELL' }],
            emails: [{ email: 'omar@example.com', type: 'WORK' }],
            org: { company: 'Haddad Trading', title: 'Buyer' },
          },
        ],
      }),
      showToast,
    );
    const card = screen.getByRole('listitem', { name: 'Omar Haddad' });
    expect(within(card).getByRole('link', { name: /\+971 50 123 4567/ })).toHaveAttribute('href', 'tel:+971 50 123 4567');
    expect(within(card).getByText('Haddad Trading · Buyer')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('Omar Haddad\nHaddad Trading · Buyer\n+971 50 123 4567\nomar@example.com');
    expect(showToast).toHaveBeenCalledWith('Copied to clipboard.', 'success', expect.any(Number));
  });

  it("names a card's phone by WhatsApp's phone type in the interface language, and keeps a label of the customer's own", () => {
    show(message('contacts', { contacts: [{ name: { formatted_name: 'Lina' }, phones: [{ phone: '+971 50 123 4567', type: 'CELL' }, { phone: '+971 4 555 0000', type: 'Shop' }] }] }));
    const card = screen.getByRole('listitem', { name: 'Lina' });
    expect(within(card).getByRole('link', { name: /\+971 50 123 4567/ })).toHaveTextContent('+971 50 123 4567 · Mobile');
    expect(within(card).getByRole('link', { name: /\+971 4 555 0000/ })).toHaveTextContent('+971 4 555 0000 · Shop');
  });

  it('shows the ad a customer came from above their message', () => {
    show(
      message('text', {
        text: 'Is this still available?',
        referral: { source_url: 'https://fb.me/ad1', source_type: 'ad', headline: 'Winter sale', body: '20% off coats', thumbnail_url: 'https://cdn.example/t.jpg' },
      }),
    );
    const ad = screen.getByRole('complementary', { name: 'From an ad' });
    expect(within(ad).getByText('Winter sale')).toBeInTheDocument();
    expect(within(ad).getByRole('link', { name: 'View ad' })).toHaveAttribute('href', 'https://fb.me/ad1');
    expect(screen.getByText('Is this still available?')).toBeInTheDocument();
  });

  it('adds a warning line for errors that came with a message', () => {
    show(message('text', { text: 'hi', errors: [{ code: 131051, title: 'Message type unknown' }] }));
    expect(screen.getByRole('note')).toHaveTextContent('WhatsApp does not pass this kind of message on');
  });

  it('never leaves a bubble blank: unsupported, unknown and empty kinds say so', () => {
    show(message('unsupported', { text: null, errors: [{ code: 131051, title: 'Message type unknown' }] } as unknown as Message['content']));
    expect(screen.getByText('Unsupported message')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('ask the customer to send it another way');
  });

  it.each([
    ['a kind newer than the app', message('hologram', {})],
    ['an interactive reply without text', message('interactive', { interactive: { type: 'mystery' } } as unknown as Message['content'])],
    ['shared contacts without cards', message('contacts', { contacts: [] })],
  ])('shows %s as an unsupported message', (_, m) => {
    show(m);
    expect(screen.getByText('Unsupported message')).toBeInTheDocument();
  });
});

describe('notices about the customer', () => {
  it('says a customer opened a chat for the first time instead of an unsupported message', () => {
    const bubble = show(message('system', { system: { type: 'request_welcome' } }));
    expect(within(bubble).getByText('Opened a chat with you for the first time')).toBeInTheDocument();
    expect(within(bubble).queryByText('Unsupported message')).toBeNull();
  });

  it("shows WhatsApp's own text of any other notice", () => {
    const bubble = show(message('system', { text: 'Sam changed from +1 650 to +1 651', system: { type: 'user_changed_number' } }));
    expect(within(bubble).getByText('Sam changed from +1 650 to +1 651')).toBeInTheDocument();
  });
});
