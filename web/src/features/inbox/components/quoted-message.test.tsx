import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ForwardContext, Message } from '../../../lib/api/types';
import { renderWithApp } from '../../../testing/render';
import type { Draft } from '../hooks/use-messages';
import { MessageBubble } from './message-bubble';
import { MessageInput } from './message-input';

const answer: Message = {
  message_id: 'wamid.answer',
  timestamp: '2026-11-24T10:01:00.000Z',
  status: 'delivered',
  direction: 'incoming',
  type: 'text',
  content: {
    text: 'This one please',
    context: { id: 'wamid.photo', quoted: { type: 'image', text: null, direction: 'outgoing' } },
    reactions: { customer: '❤️', business: '👍' },
  },
};

describe('quoted replies and reactions', () => {
  it('marks a forwarded message as forwarded and draws no quote for it', () => {
    const forwarded = (context: ForwardContext, id: string): Message => ({ ...answer, message_id: id, content: { text: 'Look at this', context } });
    renderWithApp(
      <>
        <MessageBubble message={forwarded({ forwarded: true }, 'wamid.f1')} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} />
        <MessageBubble message={forwarded({ frequently_forwarded: true }, 'wamid.f2')} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} />
      </>,
    );
    expect(screen.getByText('Forwarded')).toBeInTheDocument();
    expect(screen.getByText('Forwarded many times')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Show the quoted message/ })).not.toBeInTheDocument();
  });

  it('draws the quote above the reply and opens the original when chosen', async () => {
    const onOpenQuote = vi.fn<(id: string) => void>();
    renderWithApp(<MessageBubble message={answer} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={onOpenQuote} />);
    const quote = screen.getByRole('button', { name: /Show the quoted message: Image/ });
    expect(quote).toHaveTextContent('You');
    await userEvent.click(quote);
    expect(onOpenQuote).toHaveBeenCalledWith('wamid.photo');
    expect(screen.getByRole('img', { name: 'Reactions: ❤️ 👍' })).toHaveTextContent('❤️👍');
  });

  it('offers Reply and the six reactions in the message menu, by keyboard too', async () => {
    const quoting = { onQuote: vi.fn<(message: Message) => void>(), onReact: vi.fn<(message: Message, emoji: string) => void>() };
    renderWithApp(<MessageBubble message={answer} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} quoting={quoting} />);
    screen.getByRole('button', { name: 'Message actions' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getAllByRole('menuitem', { name: /React with/ })).toHaveLength(6);
    await userEvent.click(screen.getByRole('menuitem', { name: 'React with 🙏' }));
    expect(quoting.onReact).toHaveBeenCalledWith(answer, '🙏');
    await userEvent.click(screen.getByRole('button', { name: 'Message actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Reply' }));
    expect(quoting.onQuote).toHaveBeenCalledWith(answer);
  });

  it('shows the message being answered in the composer, sends it along and can cancel', async () => {
    const onSend = vi.fn<(draft: Draft) => void>();
    const onCancelReply = vi.fn<() => void>();
    const props = { disabled: false, onSend, onNote: vi.fn<(text: string) => void>(), onTyping: vi.fn<() => void>(), onTemplate: vi.fn<() => void>(), canned: [], cannedValues: { name: '', phone: '', agent: '' } };
    renderWithApp(<MessageInput {...props} replyTo={answer} onCancelReply={onCancelReply} />);
    expect(screen.getByRole('status', { name: 'Replying to Customer' })).toHaveTextContent('This one please');
    await userEvent.type(screen.getByRole('textbox'), 'Sure{Enter}');
    expect(onSend).toHaveBeenCalledWith({ text: 'Sure', files: [], replyTo: answer });
    await userEvent.click(screen.getByRole('button', { name: 'Cancel reply' }));
    expect(onCancelReply).toHaveBeenCalled();
  });
});
