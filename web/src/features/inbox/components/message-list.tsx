import { Fragment, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../../lib/api/types';
import { formatDate, isSameDay } from '../../../lib/format/dates';
import { ActivityLine } from './activity-line';
import type { QuoteActions } from './message-actions';
import { MessageBubble } from './message-bubble';
import { NoteBubble } from './note-bubble';

/** Closer than this to the bottom counts as "at the bottom" (spec section 9). */
const NEAR_BOTTOM_PX = 150;
const INTERSECTION_THRESHOLD = 0.1;
/** How long a message opened from search stays highlighted. */
const FOCUS_HIGHLIGHT_MS = 3000;

interface Props {
  messages: Message[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  /** A message to scroll to and highlight briefly, once it is loaded. */
  focusId?: string | null;
  onReply: (text: string) => void;
  onRetry: (messageId: string) => void;
  /** Reply to and react on a message the server has. */
  quoting?: QuoteActions;
  /** A quoted message is not loaded (it is further up, or gone). */
  onQuoteNotLoaded: (messageId: string) => void;
}

interface Snapshot {
  first: string | undefined;
  last: string | undefined;
  height: number;
}

/** Brings a message to the middle of the list and outlines it for a moment. */
function highlight(element: HTMLElement) {
  element.scrollIntoView({ block: 'center' });
  element.classList.add('search-focus');
  window.setTimeout(() => element.classList.remove('search-focus'), FOCUS_HIGHLIGHT_MS);
}

/** A message the server does not have yet cannot be answered or reacted to. */
function settled(message: Message): boolean {
  return !message.message_id.startsWith('tmp-');
}

export function MessageList({ messages, hasOlder, loadingOlder, onLoadOlder, focusId, onReply, onRetry, quoting, onQuoteNotLoaded }: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const topSentinel = useRef<HTMLDivElement>(null);
  const snapshot = useRef<Snapshot | null>(null);
  const nearBottom = useRef(true);
  /** Where the list last moved itself to the bottom: its own scroll events are no user's. */
  const ownScrollTop = useRef(-1);
  const pin = (element: HTMLElement) => {
    element.scrollTop = element.scrollHeight;
    ownScrollTop.current = element.scrollTop;
  };
  const [awayFromBottom, setAwayFromBottom] = useState(false);
  const [unseen, setUnseen] = useState(0);

  // Keeps the view steady: bottom on first load, same spot when older pages arrive on top,
  // follows new messages only when already at the bottom (else counts them).
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const before = snapshot.current;
    const first = messages[0]?.message_id;
    const last = messages[messages.length - 1]?.message_id;
    if (!before?.last) {
      pin(element);
    } else if (first !== before.first && last === before.last) {
      element.scrollTop += element.scrollHeight - before.height;
    } else if (last !== before.last) {
      const newest = messages[messages.length - 1];
      if (nearBottom.current || newest?.direction !== 'incoming') {
        pin(element);
      } else {
        const index = messages.findIndex((message) => message.message_id === before.last);
        setUnseen((count) => count + (index >= 0 ? messages.length - 1 - index : 1));
      }
    }
    snapshot.current = { first, last, height: element.scrollHeight };
  }, [messages]);

  // After the layout effect above: the focused message is brought to the middle and outlined.
  const focused = useRef<string | null>(null);
  useEffect(() => {
    if (!focusId || focused.current === focusId) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(focusId)}"]`);
    if (!element) return;
    focused.current = focusId;
    highlight(element);
  }, [focusId, messages]);

  // Pictures, videos and PDF thumbnails grow their bubbles after the first paint: while the
  // user has not scrolled up, the list stays pinned to its newest message.
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current) pin(element);
    });
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [messages]);

  const openQuote = (messageId: string) => {
    const element = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
    if (element) highlight(element);
    else onQuoteNotLoaded(messageId);
  };

  useEffect(() => {
    const sentinel = topSentinel.current;
    if (!sentinel || !hasOlder || loadingOlder) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) onLoadOlder();
      },
      { root: scroller.current, threshold: INTERSECTION_THRESHOLD },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasOlder, loadingOlder, onLoadOlder, messages]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    // The list's own move to the bottom: content that grew before this event arrived (a picture
    // that loaded) is no reason to let go of the bottom.
    if (Math.abs(element.scrollTop - ownScrollTop.current) < 1) return;
    ownScrollTop.current = -1;
    nearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < NEAR_BOTTOM_PX;
    setAwayFromBottom(!nearBottom.current);
    if (nearBottom.current) setUnseen(0);
  };

  const scrollToBottom = () => {
    const element = scroller.current;
    if (element) element.scrollTo({ top: element.scrollHeight, behavior: 'smooth' });
    setUnseen(0);
  };

  return (
    <div className={`message-list-wrap${unseen > 0 || awayFromBottom ? ' jump-shown' : ''}`}>
      <div ref={scroller} className="message-list" onScroll={onScroll} role="log" aria-label={t('chat.messages')}>
        <div ref={topSentinel} className="top-sentinel" />
        {loadingOlder && <div className="list-loading">{t('loading')}</div>}
        {messages.map((message, index) => {
          const previous = messages[index - 1];
          return (
            <Fragment key={message.message_id}>
              {(!previous || !isSameDay(previous.timestamp, message.timestamp)) && (
                <div className="day-separator">{formatDate(message.timestamp)}</div>
              )}
              {message.type === 'activity' ? (
                <ActivityLine message={message} />
              ) : message.type === 'note' ? (
                <NoteBubble message={message} />
              ) : (
                <MessageBubble
                  message={message}
                  onReply={onReply}
                  onRetry={onRetry}
                  quoting={settled(message) ? quoting : undefined}
                  onOpenQuote={openQuote}
                />
              )}
            </Fragment>
          );
        })}
      </div>
      {(unseen > 0 || awayFromBottom) && messages.length > 0 && (
        <button type="button" className="scroll-bottom" aria-label={t('chat.scrollToBottom')} onClick={scrollToBottom}>
          ↓{unseen > 0 && <span className="badge">{unseen}</span>}
        </button>
      )}
    </div>
  );
}
