// The 24-hour customer service window: free-form replies are allowed for 24 h after the customer's
// last message; under 1 h it is near expiry; afterwards (or with no message) only templates.

export const REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const NEAR_EXPIRY_MS = 60 * 60 * 1000;

export interface ReplyWindow {
  expired: boolean;
  nearExpiry: boolean;
  /** hh:mm:ss left, or empty when expired. */
  remaining: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function replyWindow(lastIncoming: string | null, now: number): ReplyWindow {
  const left = lastIncoming ? new Date(lastIncoming).getTime() + REPLY_WINDOW_MS - now : 0;
  if (!(left > 0)) return { expired: true, nearExpiry: false, remaining: '' };
  const seconds = Math.floor(left / 1000);
  return {
    expired: false,
    nearExpiry: left < NEAR_EXPIRY_MS,
    remaining: `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`,
  };
}
