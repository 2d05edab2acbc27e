import { useEffect, useState } from 'react';
import { replyWindow, type ReplyWindow } from '../reply-window';

/** The reply window, re-evaluated every second. */
export function useReplyWindow(lastIncoming: string | null): ReplyWindow {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return replyWindow(lastIncoming, now);
}
