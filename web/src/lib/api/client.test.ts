import { apiRequest, ApiError, messageOf, detailOf, refreshAccessToken, TOKEN_EXPIRED_MESSAGE } from './client';
import { getAccessToken, getRefreshToken, LOGOUT_EVENT, saveSession } from './session-store';
import { fakeServer, json } from '../../testing/fake-server';

const expired = () => json({ detail: 'expired', message: TOKEN_EXPIRED_MESSAGE, code: 'token_expired' }, 403);

describe('api client', () => {
  beforeEach(() => saveSession({ accessToken: 'old-access', refreshToken: 'old-refresh', role: 'admin' }));

  it('sends the stored bearer token', async () => {
    const { requests } = fakeServer({ 'GET /api/users/profile': () => json({ username: 'ann' }) });
    await expect(apiRequest('/api/users/profile')).resolves.toEqual({ username: 'ann' });
    expect(requests[0]?.headers.Authorization).toBe('Bearer old-access');
  });

  it('refreshes once for concurrent expired requests and retries each with the new token', async () => {
    let releaseRefresh: () => void = () => undefined;
    const { requests } = fakeServer({
      'GET /api/users': (r) => (r.headers.Authorization === 'Bearer new-access' ? json({ ok: r.path }) : expired()),
      'POST /identity/auth/refresh': async () => {
        await new Promise<void>((resolve) => (releaseRefresh = resolve));
        return json({ accessToken: 'new-access', refreshToken: 'new-refresh', role: 'admin' });
      },
    });
    const calls = [1, 2, 3].map((n) => apiRequest(`/api/users?page=${n}`));
    await vi.waitFor(() => expect(requests.filter((r) => r.path.startsWith('/identity')).length).toBe(1));
    releaseRefresh();
    await expect(Promise.all(calls)).resolves.toEqual([1, 2, 3].map((n) => ({ ok: `/api/users?page=${n}` })));
    expect(requests.filter((r) => r.path === '/identity/auth/refresh')).toHaveLength(1);
    expect(requests.filter((r) => r.path.startsWith('/api')).map((r) => r.headers.Authorization)).toEqual([
      'Bearer old-access',
      'Bearer old-access',
      'Bearer old-access',
      'Bearer new-access',
      'Bearer new-access',
      'Bearer new-access',
    ]);
    expect(getAccessToken()).toBe('new-access');
    expect(getRefreshToken()).toBe('new-refresh');
  });

  it('does not refresh on other 403 answers', async () => {
    const { requests } = fakeServer({
      'GET /identity/users/agents': () => json({ detail: 'Owner only', message: 'Forbidden', code: 'forbidden' }, 403),
    });
    await expect(apiRequest('/identity/users/agents')).rejects.toBeInstanceOf(ApiError);
    expect(requests).toHaveLength(1);
  });

  it('clears the session and raises the logout event when the refresh fails', async () => {
    fakeServer({
      'GET /api/users': expired,
      'POST /identity/auth/refresh': () => json({ detail: 'reused', message: 'Invalid refresh token' }, 401),
    });
    const logout = vi.fn<() => void>();
    window.addEventListener(LOGOUT_EVENT, logout);
    await expect(apiRequest('/api/users')).rejects.toBeInstanceOf(ApiError);
    window.removeEventListener(LOGOUT_EVENT, logout);
    expect(logout).toHaveBeenCalledTimes(1);
    expect(getRefreshToken()).toBeNull();
    expect(getAccessToken()).toBeNull();
  });

  it('clears the session and raises the logout event when the server says it was revoked', async () => {
    const revoked = { detail: 'Session revoked; please sign in again', message: 'Session revoked; please sign in again', code: 'token_revoked' };
    const { requests } = fakeServer({ 'GET /api/users': () => json(revoked, 401) });
    const logout = vi.fn<() => void>();
    window.addEventListener(LOGOUT_EVENT, logout);
    await expect(apiRequest('/api/users')).rejects.toMatchObject({ status: 401, code: 'token_revoked' });
    window.removeEventListener(LOGOUT_EVENT, logout);
    expect(logout).toHaveBeenCalledTimes(1);
    expect(getRefreshToken()).toBeNull();
    expect(requests).toHaveLength(1);
  });

  it('picks the server text for errors, else the fallback', async () => {
    fakeServer({ 'POST /identity/auth/login': () => json({ detail: 'Bad password', message: 'Invalid credentials' }, 401) });
    const error = await apiRequest('/identity/auth/login', { method: 'POST', json: {}, anonymous: true }).catch((e: unknown) => e);
    expect(messageOf(error, 'fallback')).toBe('Invalid credentials');
    expect(detailOf(error, 'fallback')).toBe('Bad password');
    expect(messageOf(new TypeError('network'), 'fallback')).toBe('fallback');
  });
});

describe('api client without a network', () => {
  it('keeps the session when the refresh cannot reach the server', async () => {
    saveSession({ accessToken: 'old-access', refreshToken: 'old-refresh', role: 'admin' });
    fakeServer({
      'GET /api/users': expired,
      'POST /identity/auth/refresh': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(apiRequest('/api/users')).rejects.toBeInstanceOf(TypeError);
    expect(getRefreshToken()).toBe('old-refresh');
  });
});

/** Web Locks as a browser grants them (jsdom has none): one holder per name, the others queue. */
function installLocks() {
  const queues = new Map<string, Promise<unknown>>();
  let requested = 0;
  const request = (name: string, work: () => unknown) => {
    requested += 1;
    const run = (queues.get(name) ?? Promise.resolve()).then(() => work());
    queues.set(name, run.catch(() => undefined));
    return run;
  };
  Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
  return { request, requested: () => requested, remove: () => Reflect.deleteProperty(navigator, 'locks') };
}

describe('api client in one of several tabs', () => {
  it('waits while another tab refreshes and takes its tokens instead of spending the same refresh token', async () => {
    saveSession({ accessToken: 'old-access', refreshToken: 'old-refresh', role: 'admin' });
    const locks = installLocks();
    let finishOtherTab: () => void = () => undefined;
    const otherTab = locks.request(
      'parley:refresh',
      () =>
        new Promise<void>((resolve) => {
          finishOtherTab = () => {
            saveSession({ accessToken: 'tab-access', refreshToken: 'tab-refresh' });
            resolve();
          };
        }),
    );
    const { requests } = fakeServer({
      'GET /api/users': (r) => (r.headers.Authorization === 'Bearer tab-access' ? json({ ok: true }) : expired()),
      'POST /identity/auth/refresh': () => json({ accessToken: 'new-access', refreshToken: 'new-refresh', role: 'admin' }),
    });
    const call = apiRequest('/api/users');
    // This tab met the expired token and queued behind the other tab's refresh.
    await vi.waitFor(() => expect(locks.requested()).toBe(2));
    finishOtherTab();
    await otherTab;
    await expect(call).resolves.toEqual({ ok: true });
    locks.remove();
    expect(requests.map((r) => r.path)).toEqual(['/api/users', '/api/users']);
    expect(getRefreshToken()).toBe('tab-refresh');
  });
});

/** The Cache API as a browser keeps it (jsdom has none), for what one tab leaves for another. */
function installCaches() {
  const stores = new Map<string, Map<string, string>>();
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, string>();
    stores.set(name, store);
    return {
      put: async (url: string, response: Response) => void store.set(url, await response.text()),
      match: async (url: string) => (store.has(url) ? new Response(store.get(url)) : undefined),
    };
  };
  vi.stubGlobal('caches', { open });
}

describe('api client in a tab that reads the stored tokens late', () => {
  it('takes the pair another tab got for the same refresh token instead of spending it again', async () => {
    saveSession({ accessToken: 'old-access', refreshToken: 'old-refresh', role: 'admin' });
    installCaches();
    const server = () =>
      fakeServer({
        'GET /api/users': (r) => (r.headers.Authorization === 'Bearer old-access' ? expired() : json({ by: r.headers.Authorization })),
        'POST /identity/auth/refresh': () => json({ accessToken: 'other-access', refreshToken: 'other-refresh', role: 'admin' }),
      });
    // The other tab refreshes; this tab's storage has not seen it yet.
    server();
    await refreshAccessToken();
    saveSession({ accessToken: 'old-access', refreshToken: 'old-refresh', role: 'admin' });
    const { requests } = server();
    await expect(apiRequest('/api/users')).resolves.toEqual({ by: 'Bearer other-access' });
    expect(requests.map((r) => r.path)).toEqual(['/api/users', '/api/users']);
    expect(getRefreshToken()).toBe('other-refresh');
  });
});
