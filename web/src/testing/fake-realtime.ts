// A stand-in for the live stream in unit tests: wrap the screen in its `Provider` with `value`,
// then `emit` events to every listener as the WebSocket provider would.
import { act } from '@testing-library/react';
import type { RealtimeEvent } from '../lib/realtime/events';
import { RealtimeContext, type Realtime } from '../lib/realtime/realtime-context';

export function fakeRealtime() {
  const listeners = new Set<(event: RealtimeEvent) => void>();
  const value: Realtime = {
    follow: () => () => undefined,
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    state: 'open',
  };
  const emit = (event: RealtimeEvent) => act(() => listeners.forEach((listener) => listener(event)));
  return { Provider: RealtimeContext.Provider, value, emit };
}
