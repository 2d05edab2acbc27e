// A stand-in for the live stream in unit tests: wrap the screen in its `Provider` with `value`,
// then `emit` events to every listener as the WebSocket provider would; `presences` records the
// presence frames the screen sent.
import { act } from '@testing-library/react';
import type { PresenceState, RealtimeEvent } from '../lib/realtime/events';
import { RealtimeContext, type Realtime } from '../lib/realtime/realtime-context';

export function fakeRealtime() {
  const listeners = new Set<(event: RealtimeEvent) => void>();
  const presences: { channel: string; state: PresenceState }[] = [];
  const value: Realtime = {
    follow: () => () => undefined,
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    presence: (channel, state) => presences.push({ channel, state }),
    state: 'open',
    ready: true,
  };
  const emit = (event: RealtimeEvent) => act(() => listeners.forEach((listener) => listener(event)));
  return { Provider: RealtimeContext.Provider, value, emit, presences };
}
