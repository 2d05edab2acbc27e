// Online or offline (spec section 4, "Network"): HEAD /api/health every 5 s with a 2 s timeout,
// plus the browser's online/offline events for a prompt first check. When the connection
// returns, and on every online check while messages wait, the pending queue is synced.
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useToast } from '../toast/toast-context';

export const CHECK_INTERVAL_MS = 5000;
export const CHECK_TIMEOUT_MS = 2000;

export async function checkHealth(): Promise<boolean> {
  try {
    const response = await fetch('/api/health', { method: 'HEAD', cache: 'no-store', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    return response.ok;
  } catch {
    return false;
  }
}

export interface MonitorOptions {
  check?: () => Promise<boolean>;
  intervalMs?: number;
  /** Runs after every check with its result and whether it changed the state. */
  onCheck?: (online: boolean, changed: boolean) => void;
}

/** A connectivity monitor; the app uses the one started by `startConnectivity`. */
export class ConnectivityMonitor {
  online: boolean;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly check: () => Promise<boolean>;
  private readonly intervalMs: number;
  onCheck: MonitorOptions['onCheck'];

  constructor({ check = checkHealth, intervalMs = CHECK_INTERVAL_MS, onCheck }: MonitorOptions = {}) {
    this.online = typeof navigator === 'undefined' ? true : navigator.onLine;
    this.check = check;
    this.intervalMs = intervalMs;
    this.onCheck = onCheck;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.checkNow(), this.intervalMs);
    window.addEventListener('online', this.checkNow);
    window.addEventListener('offline', this.checkNow);
    void this.checkNow();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    window.removeEventListener('online', this.checkNow);
    window.removeEventListener('offline', this.checkNow);
  }

  readonly checkNow = async (): Promise<boolean> => {
    const online = await this.check();
    const changed = online !== this.online;
    this.online = online;
    if (changed) this.listeners.forEach((listener) => listener());
    this.onCheck?.(online, changed);
    return online;
  };

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const monitor = new ConnectivityMonitor();

/** Starts the app's monitor; `onCheck` is where the outbox sync hooks in. */
export function startConnectivity(onCheck: MonitorOptions['onCheck']): void {
  monitor.onCheck = onCheck;
  monitor.start();
}

export function isOnline(): boolean {
  return monitor.online;
}

export function useOnline(): boolean {
  return useSyncExternalStore(monitor.subscribe, () => monitor.online);
}

/** The offlineMessage and connectionRestored toasts, on changes only. */
export function useConnectivityToasts(durationMs?: number): void {
  const online = useOnline();
  const { t } = useTranslation();
  const showToast = useToast();
  const previous = useRef(online);
  useEffect(() => {
    if (previous.current === online) return;
    previous.current = online;
    showToast(t(online ? 'connectionRestored' : 'offlineMessage'), online ? 'success' : 'error', durationMs);
  }, [online, showToast, t, durationMs]);
}
