import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ar from '../../../../public/locales/ar/translation.json';
import type { Message } from '../../../lib/api/types';
import { renderWithApp, testI18n } from '../../../testing/render';
import { MessageBubble } from './message-bubble';

const DETAILS = 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';
const REENGAGEMENT = { code: 131047, title: 'Re-engagement message', message: 'Re-engagement message', error_data: { details: DETAILS } };

const sent = (status: Message['status'], error?: unknown): Message => ({
  message_id: 'wamid.sent',
  timestamp: '2026-03-04T09:05:00Z',
  status,
  direction: 'outgoing',
  type: 'text',
  content: { text: 'Your order is ready' },
  error,
});

const received = (errors: Message['content']['errors']): Message => ({
  message_id: 'wamid.in',
  timestamp: '2026-03-04T09:05:00Z',
  status: 'delivered',
  direction: 'incoming',
  type: 'unsupported',
  content: { errors },
});

function show(message: Message) {
  renderWithApp(<MessageBubble message={message} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} />);
  return screen.queryByRole('note');
}

describe("why WhatsApp failed a message, in the interface language", () => {
  beforeAll(() => testI18n.addResourceBundle('ar', 'translation', ar));
  afterEach(() => act(() => testI18n.changeLanguage('en')));

  it("says why a send failed in our words, with WhatsApp's code and words one click away", async () => {
    const note = show(sent('failed', REENGAGEMENT))!;
    expect(note).toHaveTextContent("More than 24 hours since the customer's last message: send a template.");
    expect(note).toHaveClass('failed');
    expect(within(note).getByText(DETAILS)).not.toBeVisible();
    await userEvent.click(within(note).getByText('WhatsApp error 131047'));
    expect(within(note).getByText('Re-engagement message')).toBeVisible();
    expect(within(note).getByText(DETAILS)).toHaveAttribute('dir', 'auto');
    expect(within(note).getAllByText('Re-engagement message')).toHaveLength(1);
  });

  it("says it in Arabic, WhatsApp's English kept to the details in its own direction", async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const note = show(sent('failed', REENGAGEMENT))!;
    const headline = note.querySelector('p')!;
    expect(headline).toHaveTextContent('مرّ أكثر من 24 ساعة على آخر رسالة من العميل: أرسل قالبًا.');
    expect(headline).not.toHaveTextContent('Re-engagement');
    expect(within(note).getByText('خطأ واتساب 131047')).toBeInTheDocument();
    expect(within(note).getByText('Re-engagement message')).toHaveAttribute('dir', 'auto');
  });

  it("translates an error a customer's message came with the same way", async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const note = show(received([{ code: 131051, title: 'Message type unknown', message: 'Message type is currently not supported.' }]))!;
    expect(note.querySelector('p')).toHaveTextContent('لا يمرّر واتساب هذا النوع من الرسائل');
    expect(note).not.toHaveClass('failed');
  });

  it("shows an unknown code's title in its own direction, with the code", async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const note = show(sent('failed', { code: 135000, title: 'Generic user error' }))!;
    expect(within(note).getByText('Generic user error')).toHaveAttribute('dir', 'auto');
    expect(note).toHaveTextContent('خطأ واتساب 135000');
  });

  it('says nothing once a later status overtook the failure, or for a failure without a reason', () => {
    expect(show(sent('delivered', REENGAGEMENT))).toBeNull();
    expect(show(sent('failed'))).toBeNull();
  });
});
