import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../../lib/api/types';
import { renderWithApp, testI18n } from '../../../testing/render';
import { MessageBubble } from './message-bubble';

const question: Message = {
  message_id: 'wamid.q',
  timestamp: '2026-11-24T10:01:00.000Z',
  status: 'delivered',
  direction: 'incoming',
  type: 'text',
  content: { text: 'Is it in stock?' },
};

function bubble() {
  const quoting = { onQuote: vi.fn<(message: Message) => void>(), onReact: vi.fn<(message: Message, emoji: string) => void>() };
  renderWithApp(<MessageBubble message={question} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} quoting={quoting} />);
  return { quoting, article: screen.getByRole('article') };
}

/** A one-finger drag from (100, 100) by `dx`, `dy`, in steps as a finger moves. */
function swipe(target: HTMLElement, dx: number, dy = 0) {
  fireEvent.touchStart(target, { touches: [{ clientX: 100, clientY: 100 }] });
  for (const step of [0.25, 0.5, 0.75, 1]) {
    fireEvent.touchMove(target, { touches: [{ clientX: 100 + dx * step, clientY: 100 + dy * step }] });
  }
  fireEvent.touchEnd(target, { touches: [] });
}

describe('swipe to reply', () => {
  afterEach(async () => {
    await act(() => testI18n.changeLanguage('en'));
  });

  it('starts a reply when the bubble is swiped far enough to the right, and follows the finger meanwhile', () => {
    const { quoting, article } = bubble();
    fireEvent.touchStart(article, { touches: [{ clientX: 100, clientY: 100 }] });
    fireEvent.touchMove(article, { touches: [{ clientX: 140, clientY: 102 }] });
    expect(article.style.transform).toBe('translateX(40px)');
    fireEvent.touchEnd(article, { touches: [] });
    expect(quoting.onQuote).not.toHaveBeenCalled();
    expect(article.style.transform).toBe('');

    swipe(article, 90);
    expect(quoting.onQuote).toHaveBeenCalledWith(question);
  });

  it('keeps its drag from the chat pane, whose swipe back would close the conversation', () => {
    const onPaneTouchEnd = vi.fn<() => void>();
    const quoting = { onQuote: vi.fn<(message: Message) => void>(), onReact: vi.fn<(message: Message, emoji: string) => void>() };
    renderWithApp(
      <section onTouchEnd={onPaneTouchEnd}>
        <MessageBubble message={question} onReply={vi.fn<(text: string) => void>()} onRetry={vi.fn<(id: string) => void>()} onOpenQuote={vi.fn<(id: string) => void>()} quoting={quoting} />
      </section>,
    );
    swipe(screen.getByRole('article'), 90);
    expect(quoting.onQuote).toHaveBeenCalledWith(question);
    expect(onPaneTouchEnd).not.toHaveBeenCalled();
  });

  it('leaves a swipe the wrong way and a vertical scroll alone', () => {
    const { quoting, article } = bubble();
    swipe(article, -90);
    swipe(article, 60, 200);
    expect(quoting.onQuote).not.toHaveBeenCalled();
  });

  it('is mirrored in right-to-left pages: a swipe to the left replies', async () => {
    await act(() => testI18n.changeLanguage('ar'));
    const { quoting, article } = bubble();
    swipe(article, 90);
    expect(quoting.onQuote).not.toHaveBeenCalled();
    swipe(article, -90);
    expect(quoting.onQuote).toHaveBeenCalledWith(question);
  });
});
