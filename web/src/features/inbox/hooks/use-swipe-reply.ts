// Swipe to reply on touch screens: a bubble dragged sideways, towards the page's reading
// direction (right in left-to-right pages, left in right-to-left ones), follows the finger and,
// dragged far enough, starts the same reply as the menu's Reply (rather than the chat pane's
// swipe back, on small screens).
import { useRef, useState, type TouchEvent } from 'react';

/** How far (px) the bubble must be dragged to start the reply. */
export const SWIPE_REPLY_PX = 56;
/** The bubble follows the finger up to this far (px). */
const MAX_SHIFT_PX = 80;

interface Start {
  x: number;
  y: number;
  /** Set once the gesture reads as vertical (a scroll), which is then left to the list. */
  scrolling: boolean;
}

export interface SwipeReply {
  /** How far the bubble is drawn shifted, in px (negative to the left). */
  shift: number;
  onTouchStart: (event: TouchEvent) => void;
  onTouchMove: (event: TouchEvent) => void;
  onTouchEnd: (event: TouchEvent) => void;
}

/** Touch handlers for a bubble; `onReply` is left out for a message that cannot be quoted. */
export function useSwipeReply(direction: 'ltr' | 'rtl', onReply: (() => void) | undefined): SwipeReply {
  const start = useRef<Start | null>(null);
  const [shift, setShift] = useState(0);
  const sign = direction === 'rtl' ? -1 : 1;

  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    start.current = onReply && touch && event.touches.length === 1 ? { x: touch.clientX, y: touch.clientY, scrolling: false } : null;
  };

  const onTouchMove = (event: TouchEvent) => {
    const began = start.current;
    const touch = event.touches[0];
    if (!began || began.scrolling || !touch) return;
    const dx = (touch.clientX - began.x) * sign;
    const dy = touch.clientY - began.y;
    if (Math.abs(dy) > Math.abs(dx)) {
      began.scrolling = true;
      setShift(0);
      return;
    }
    setShift(Math.min(Math.max(dx, 0), MAX_SHIFT_PX) * sign);
  };

  const onTouchEnd = (event: TouchEvent) => {
    const far = Math.abs(shift) >= SWIPE_REPLY_PX && !start.current?.scrolling;
    // A drag of the bubble is its own: the chat pane's swipe back (small screens) stays out.
    if (shift !== 0) event.stopPropagation();
    start.current = null;
    setShift(0);
    if (far) onReply?.();
  };

  return { shift, onTouchStart, onTouchMove, onTouchEnd };
}
