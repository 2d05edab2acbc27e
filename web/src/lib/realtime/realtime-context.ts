import { createContext, useContext, useEffect, useLayoutEffect, useRef } from 'react';
import type { PresenceState, RealtimeEvent } from './events';

export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface Realtime {
  /** Follows a channel while the returned function is not called; resent on every reconnect. */
  follow(channel: string): () => void;
  /** Listens to every event; answers the function that stops listening. */
  listen(listener: (event: RealtimeEvent) => void): () => void;
  /** Tells the teammates following the channel what this user is doing there; resent on reconnect. */
  presence(channel: string, state: PresenceState): void;
  state: ConnectionState;
  /**
   * Whether screens may read what they show: events reach the tab from the time they read (the
   * server has confirmed notifications/all), or the stream is late and a `reset` will follow.
   */
  ready: boolean;
}

export const RealtimeContext = createContext<Realtime>({
  follow: () => () => undefined,
  listen: () => () => undefined,
  presence: () => undefined,
  state: 'closed',
  ready: true,
});

export function useRealtime(): Realtime {
  return useContext(RealtimeContext);
}

/** Calls the latest handler for every live event. */
export function useRealtimeEvents(handler: (event: RealtimeEvent) => void): void {
  const { listen } = useRealtime();
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  useEffect(() => listen((event) => latest.current(event)), [listen]);
}

/** Follows the channel while the component is mounted and the channel is set. */
export function useFollow(channel: string | null | undefined): void {
  const { follow } = useRealtime();
  useEffect(() => (channel ? follow(channel) : undefined), [channel, follow]);
}
