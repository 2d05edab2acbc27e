// One WebSocket per signed-in tab. It follows notifications/all plus whatever channels the screens
// ask for, reconnects by itself, and on reconnect follows them again and asks the server to replay
// events after the last seq it saw, in one frame (the server answers `reset` when it cannot;
// listeners then re-fetch). Screens read
// once the server has confirmed notifications/all (`ready`), so no event falls between their read
// and the stream; if that takes over READ_WAIT_MS (or the tab is offline) they read at once, and
// when a connection with no seq to resume from is confirmed after they read, they re-fetch.
// Presence (viewing, typing) is a frame the other way; the latest one per channel is resent on
// reconnect.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useWebSocket } from 'react-use-websocket/dist/lib/use-websocket';
import { ReadyState } from 'react-use-websocket/dist/lib/constants';
import { raiseLogout } from '../api/session-store';
import { freshAccessToken } from './access-token';
import { NOTIFICATIONS_CHANNEL, type PresenceState, type RealtimeEvent } from './events';
import { RealtimeContext, type ConnectionState, type Realtime } from './realtime-context';
import { registerStream } from './streams';

const TOKEN_EXPIRED_REASON = 'token expired';
/** The server ended the user's sessions (signed out everywhere, agent deleted): sign out here too. */
const SESSION_REVOKED_REASON = 'session revoked';
const MAX_RECONNECT_DELAY_MS = 5000;
/** How long screens wait for the stream before they read what they show without it. */
const READ_WAIT_MS = 1000;

/** The server's answer to a subscription: the channel's events reach this socket from now on. */
interface SubscribedFrame {
  event: 'subscribed';
  channel: string;
}

function socketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/api/ws?token=${encodeURIComponent(token)}`;
}

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const [connect, setConnect] = useState(true);
  const channels = useRef(new Map<string, number>([[NOTIFICATIONS_CHANNEL, 1]]));
  const listeners = useRef(new Set<(event: RealtimeEvent) => void>());
  /** The presence last told per channel, idle ones left out. */
  const presences = useRef(new Map<string, PresenceState>());
  const lastSeq = useRef(0);
  const tokenExpired = useRef(false);
  /** Set on a connection with no seq to resume from, until notifications/all is confirmed. */
  const refetchOnSubscribed = useRef(false);
  const [ready, setReady] = useState(() => !navigator.onLine);
  const readRef = useRef(ready);
  const letScreensRead = useCallback(() => {
    readRef.current = true;
    setReady(true);
  }, []);

  useEffect(() => {
    const timer = setTimeout(letScreensRead, READ_WAIT_MS);
    return () => clearTimeout(timer);
  }, [letScreensRead]);

  const url = useCallback(async () => {
    const token = await freshAccessToken(tokenExpired.current);
    tokenExpired.current = false;
    return socketUrl(token);
  }, []);

  const dispatch = useCallback((event: RealtimeEvent) => {
    listeners.current.forEach((listener) => listener(event));
  }, []);

  const { sendJsonMessage, readyState } = useWebSocket(
    url,
    {
      shouldReconnect: () => true,
      reconnectAttempts: Number.POSITIVE_INFINITY,
      reconnectInterval: (attempt) => Math.min(250 * 2 ** attempt, MAX_RECONNECT_DELAY_MS),
      retryOnError: true,
      // Messages are handled in onMessage; skipping the hook's own state avoids a render per event.
      filter: () => false,
      onOpen: () => {
        const followed = [...channels.current.keys()];
        // One frame follows the channels and resumes, so no live event goes out between the two.
        if (lastSeq.current > 0) sendJsonMessage({ op: 'resume', after: lastSeq.current, channels: followed });
        else {
          followed.forEach((channel) => sendJsonMessage({ op: 'subscribe', channel }));
          refetchOnSubscribed.current = true;
        }
        presences.current.forEach((state, channel) => sendJsonMessage({ op: 'presence', channel, state }));
      },
      onClose: (event) => {
        if (event.reason === TOKEN_EXPIRED_REASON) tokenExpired.current = true;
        if (event.reason === SESSION_REVOKED_REASON) raiseLogout();
      },
      onMessage: (message) => {
        let event: RealtimeEvent | SubscribedFrame;
        try {
          event = JSON.parse(String(message.data)) as RealtimeEvent | SubscribedFrame;
        } catch {
          return;
        }
        if (event.event === 'subscribed') {
          // Events reach this tab from here on: screens read now, or read again if they did before.
          if (event.channel === NOTIFICATIONS_CHANNEL && refetchOnSubscribed.current) {
            refetchOnSubscribed.current = false;
            if (readRef.current) dispatch({ event: 'reset' });
            else letScreensRead();
          }
          return;
        }
        // seq 0 marks a transient event (bulk send progress): never logged, so never replayed.
        if (typeof event.seq === 'number' && event.seq > 0) {
          // A replay after resume can repeat events already seen.
          if (event.seq <= lastSeq.current) return;
          lastSeq.current = event.seq;
        }
        if (event.event === 'reset') lastSeq.current = 0;
        dispatch(event);
      },
    },
    connect,
  );

  useEffect(() => registerStream(() => setConnect(false)), []);

  const follow = useCallback(
    (channel: string) => {
      const count = channels.current.get(channel) ?? 0;
      channels.current.set(channel, count + 1);
      if (count === 0) sendJsonMessage({ op: 'subscribe', channel }, false);
      return () => {
        const left = (channels.current.get(channel) ?? 1) - 1;
        if (left > 0) {
          channels.current.set(channel, left);
          return;
        }
        channels.current.delete(channel);
        sendJsonMessage({ op: 'unsubscribe', channel }, false);
      };
    },
    [sendJsonMessage],
  );

  const listen = useCallback((listener: (event: RealtimeEvent) => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const presence = useCallback(
    (channel: string, state: PresenceState) => {
      if (state === 'idle') presences.current.delete(channel);
      else presences.current.set(channel, state);
      sendJsonMessage({ op: 'presence', channel, state }, false);
    },
    [sendJsonMessage],
  );

  const state: ConnectionState =
    readyState === ReadyState.OPEN ? 'open' : readyState === ReadyState.CONNECTING ? 'connecting' : 'closed';
  const value = useMemo<Realtime>(() => ({ follow, listen, presence, state, ready }), [follow, listen, presence, state, ready]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}
