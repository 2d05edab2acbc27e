import { useCallback, useEffect, useRef, useState } from 'react';
import { currentUserId } from '../../../lib/api/token-claims';
import type { AgentActivityEvent } from '../../../lib/realtime/events';
import { useRealtime, useRealtimeEvents } from '../../../lib/realtime/realtime-context';

/** Typing is told at most this often while keys keep coming. */
export const TYPING_THROTTLE_MS = 3000;
/** Without a key for this long, typing goes back to viewing. */
export const TYPING_IDLE_MS = 5000;

export type Teammate = Pick<AgentActivityEvent, 'user_id' | 'name' | 'state'>;

/**
 * Presence in one conversation: tells the teammates this user is viewing it (while the page is
 * visible) or typing, idle on leaving; and answers who else is there and what they do.
 */
export function usePresence(conversationId: string) {
  const { presence } = useRealtime();
  const [teammates, setTeammates] = useState<Teammate[]>([]);
  const lastTyping = useRef(0);
  const typingEnds = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (!conversationId) return;
    const tell = () => presence(conversationId, document.visibilityState === 'hidden' ? 'idle' : 'viewing');
    tell();
    document.addEventListener('visibilitychange', tell);
    return () => {
      document.removeEventListener('visibilitychange', tell);
      window.clearTimeout(typingEnds.current);
      presence(conversationId, 'idle');
    };
  }, [conversationId, presence]);

  const typing = useCallback(() => {
    if (!conversationId) return;
    const now = Date.now();
    if (now - lastTyping.current >= TYPING_THROTTLE_MS) {
      lastTyping.current = now;
      presence(conversationId, 'typing');
    }
    window.clearTimeout(typingEnds.current);
    typingEnds.current = window.setTimeout(() => {
      lastTyping.current = 0;
      presence(conversationId, 'viewing');
    }, TYPING_IDLE_MS);
  }, [conversationId, presence]);

  useRealtimeEvents((event) => {
    if (event.event !== 'agent_activity' || event.data.conversation_id !== conversationId) return;
    const { user_id: id, name, state } = event.data;
    if (id === currentUserId()) return;
    setTeammates((current) => {
      const others = current.filter((teammate) => teammate.user_id !== id);
      return state === 'idle' ? others : [...others, { user_id: id, name, state }];
    });
  });

  return { teammates, typing };
}
