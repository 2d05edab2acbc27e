import { act } from '@testing-library/react';
import { renderWithApp } from '../../testing/render';
import { CHECK_INTERVAL_MS, CHECK_TIMEOUT_MS, checkHealth, ConnectivityMonitor, startConnectivity, useConnectivityToasts } from './connectivity';

describe('the health check', () => {
  it('sends HEAD /api/health and gives up after 2 seconds', async () => {
    const timeout = new AbortController();
    const timeoutSpy = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(timeout.signal);
    const fetchMock = vi.fn<typeof fetch>(
      (_input, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('timed out', 'TimeoutError')))),
    );
    vi.stubGlobal('fetch', fetchMock);

    const answer = checkHealth();
    timeout.abort();

    expect(await answer).toBe(false);
    expect(timeoutSpy).toHaveBeenCalledWith(CHECK_TIMEOUT_MS);
    expect(CHECK_TIMEOUT_MS).toBe(2000);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/health');
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'HEAD', signal: timeout.signal });
  });

  it('is online only on a 2xx answer', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => new Response(null, { status: 200 })));
    expect(await checkHealth()).toBe(true);
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => new Response(null, { status: 503 })));
    expect(await checkHealth()).toBe(false);
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect(await checkHealth()).toBe(false);
  });
});

describe('the connectivity monitor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('checks at once and then every 5 seconds, reporting changes to subscribers', async () => {
    const answers = [true, false, false, true];
    const check = vi.fn<() => Promise<boolean>>(async () => answers.shift() ?? true);
    const onCheck = vi.fn<(online: boolean, changed: boolean) => void>();
    const monitor = new ConnectivityMonitor({ check, onCheck });
    const changed = vi.fn<() => void>();
    monitor.subscribe(changed);

    monitor.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(monitor.online).toBe(false);
    await vi.advanceTimersByTimeAsync(2 * CHECK_INTERVAL_MS);
    monitor.stop();

    expect(CHECK_INTERVAL_MS).toBe(5000);
    expect(check).toHaveBeenCalledTimes(4);
    expect(monitor.online).toBe(true);
    expect(changed).toHaveBeenCalledTimes(2);
    expect(onCheck.mock.calls).toEqual([
      [true, false],
      [false, true],
      [false, false],
      [true, true],
    ]);
  });

  it('checks at once when the browser says the network changed', async () => {
    const check = vi.fn<() => Promise<boolean>>(async () => true);
    const monitor = new ConnectivityMonitor({ check });
    monitor.start();
    await vi.advanceTimersByTimeAsync(0);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    monitor.stop();
    window.dispatchEvent(new Event('offline'));

    expect(check).toHaveBeenCalledTimes(2);
  });
});

describe('connectivity toasts', () => {
  function Toasts() {
    useConnectivityToasts();
    return null;
  }

  it('say offline when the server stops answering and restored when it answers again', async () => {
    vi.useFakeTimers();
    let up = true;
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => (up ? new Response(null) : Promise.reject(new TypeError('offline')))));
    const toasts: string[] = [];
    const synced = vi.fn<() => void>();
    startConnectivity((online) => online && synced());
    renderWithApp(<Toasts />, (text) => toasts.push(text));
    await act(() => vi.advanceTimersByTimeAsync(0));

    up = false;
    await act(() => vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS));
    expect(toasts).toEqual(['You are offline.']);
    const syncsWhileUp = synced.mock.calls.length;
    await act(() => vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS));
    expect(synced).toHaveBeenCalledTimes(syncsWhileUp);

    up = true;
    await act(() => vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS));
    expect(toasts).toEqual(['You are offline.', 'Connection restored.']);
    expect(synced).toHaveBeenCalledTimes(syncsWhileUp + 1);
    vi.useRealTimers();
  });
});
