// The one HTTP client of the app. Every call sends the stored bearer token; a 403 whose message is
// exactly "Forbidden: Token expired" triggers one shared refresh, and every request that hit it
// (or started while it ran) retries with the new token. A revoked session ends this one too.
import { leaveRefreshed, refreshedElsewhere } from './refresh-handoff';
import { refusalText } from './server-text';
import { getAccessToken, getRefreshToken, raiseLogout, saveSession } from './session-store';

export const TOKEN_EXPIRED_MESSAGE = 'Forbidden: Token expired';
/** The `code` of a 401 for an access token whose session was ended on the server. */
const TOKEN_REVOKED_CODE = 'token_revoked';

/** A non-2xx answer; the server's error body is `{detail, message, code}`. */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly serverMessage: string | undefined;
  readonly code: string | undefined;
  /** The whole error body, for the answers that carry more than the three fields. */
  readonly body: Record<string, unknown>;

  constructor(status: number, body: unknown) {
    const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
    super(text('detail') ?? text('message') ?? `HTTP ${status}`);
    this.status = status;
    this.detail = text('detail');
    this.serverMessage = text('message');
    this.code = text('code');
    this.body = fields;
  }
}

/**
 * The server's `message`, else its `detail`, else the fallback (spec section 8, access errors). In
 * another language than English, a translation of the server's text when it is a known one, else
 * the fallback: the server words its refusals in English.
 */
export function messageOf(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return refusalText(error.serverMessage ?? error.detail, error.code, [error.serverMessage, error.detail]) ?? fallback;
}

/** The server's `detail`, else the fallback (spec section 8, contacts and list); translated as `messageOf`. */
export function detailOf(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  return refusalText(error.detail, error.code, [error.detail, error.serverMessage]) ?? fallback;
}

/** The refusal's `details`, where the server has more to say than its `detail` (the provider's own words). */
export function detailsOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const details = error.body.details;
  return typeof details === 'string' && details.trim() ? details : undefined;
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as multipart/form-data. */
  form?: FormData;
  signal?: AbortSignal;
  /** Identity calls made before a session exists skip the bearer token. */
  anonymous?: boolean;
  /** Reports the share of the body sent so far (0–1); the request then goes by XMLHttpRequest. */
  onUploadProgress?: (fraction: number) => void;
}

let refreshing: Promise<string> | null = null;

/** The Web Locks name under which the tabs of one browser refresh, one at a time. */
const REFRESH_LOCK = 'parley:refresh';

/**
 * Replaces both tokens using the stored refresh token. Concurrent callers share one request.
 * On failure the session is cleared and the logout event raised.
 */
export function refreshAccessToken(): Promise<string> {
  const stale = getAccessToken();
  refreshing ??= oneTabAtATime(() => runRefresh(stale)).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * Tabs of one browser share the stored tokens. Were two to spend the same refresh token, the
 * server would take the second use as theft and end the session, so they take turns (where the
 * browser has Web Locks: secure origins).
 */
async function oneTabAtATime(work: () => Promise<string>): Promise<string> {
  const locks = (navigator as Partial<Navigator>).locks;
  return locks ? await locks.request(REFRESH_LOCK, work) : work();
}

async function runRefresh(stale: string | null): Promise<string> {
  // Another tab refreshed while this one waited for its turn: its new tokens are stored.
  const current = getAccessToken();
  if (current && current !== stale) return current;
  const refreshToken = getRefreshToken();
  if (!refreshToken) {
    raiseLogout();
    throw new ApiError(401, { message: 'No refresh token' });
  }
  const handed = await refreshedElsewhere(refreshToken).catch(() => null);
  if (handed) {
    saveSession(handed);
    return handed.accessToken;
  }
  // A network failure (offline, page unloading) keeps the session for a later try; only the
  // server refusing the refresh token ends it.
  const response = await fetch('/identity/auth/refresh', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  const body = await readBody(response);
  if (!response.ok || !isTokenPair(body)) {
    raiseLogout();
    throw new ApiError(response.status, body);
  }
  saveSession(body);
  await leaveRefreshed(refreshToken, body).catch((error: unknown) => console.warn('refresh not handed over', error));
  return body.accessToken;
}

function isTokenPair(body: unknown): body is { accessToken: string; refreshToken: string; role?: string } {
  const b = body as Record<string, unknown> | null;
  return !!b && typeof b.accessToken === 'string' && typeof b.refreshToken === 'string';
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token && !options.anonymous) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const init = { method: options.method ?? 'GET', headers, body, signal: options.signal };
  return options.onUploadProgress ? sendWithProgress(path, init, options.onUploadProgress) : fetch(path, init);
}

/** fetch() cannot report upload progress; XMLHttpRequest can. Answers the same Response. */
function sendWithProgress(
  path: string,
  init: { method: string; headers: Record<string, string>; body?: BodyInit; signal?: AbortSignal },
  onProgress: (fraction: number) => void,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method, path);
    Object.entries(init.headers).forEach(([name, value]) => xhr.setRequestHeader(name, value));
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onload = () => {
      const nullBody = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
      resolve(new Response(nullBody ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText }));
    };
    xhr.onerror = () => reject(new TypeError('Network request failed'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    init.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(init.body as XMLHttpRequestBodyInit | undefined);
  });
}

async function isTokenExpired(response: Response): Promise<boolean> {
  if (response.status !== 403) return false;
  const body = (await readBody(response.clone())) as Record<string, unknown> | null;
  return body?.message === TOKEN_EXPIRED_MESSAGE;
}

/** Sends a request and answers the raw response once it is 2xx; throws ApiError otherwise. */
export async function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  if (refreshing && !options.anonymous) await refreshing.catch(() => undefined);
  const usedToken = getAccessToken();
  let response = await send(path, options, usedToken);
  if (!options.anonymous && (await isTokenExpired(response))) {
    // Another request may already have refreshed since this one left: then just retry.
    const current = getAccessToken();
    const token = current && current !== usedToken ? current : await refreshAccessToken();
    response = await send(path, options, token);
  }
  if (!response.ok) {
    const error = new ApiError(response.status, await readBody(response));
    // A session the server revoked (signed out everywhere, agent deleted) is over here too.
    if (!options.anonymous && error.code === TOKEN_REVOKED_CODE) raiseLogout();
    throw error;
  }
  return response;
}

/** Sends a request and answers the parsed JSON body. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(path, options);
  return (await readBody(response)) as T;
}
