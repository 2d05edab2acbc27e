import 'fake-indexeddb/auto';
import { saveSession } from '../api/session-store';
import { db } from '../offline/db';
import { fakeServer } from '../../testing/fake-server';
import { lookupMedia } from './media-cache';

const URL_7 = '/api/media/7';

/** A stand-in Cache API holding the given answers. */
function cacheApi(answers: Record<string, Response>) {
  const match = vi.fn<(url: string) => Promise<Response | undefined>>(async (url) => answers[url]?.clone());
  vi.stubGlobal('caches', { match });
  return match;
}

const text = (blob: Blob | null) => blob?.text();
/** Node's Blob (what fetch answers); the database's structured clone keeps it, unlike jsdom's. */
const blobOf = (content: string) => new Response(content).blob();

beforeEach(async () => {
  saveSession({ accessToken: 'access', refreshToken: 'refresh' });
  await (await db()).clear('media');
});

describe('media lookup', () => {
  it('answers from the Cache API first, without the local database or the network', async () => {
    cacheApi({ [URL_7]: new Response('from cache') });
    await (await db()).put('media', { url: URL_7, blob: await blobOf('from database') });
    const { requests } = fakeServer({});

    expect(await text(await lookupMedia(URL_7))).toBe('from cache');
    expect(requests).toEqual([]);
  });

  it('answers from the local database when the Cache API has nothing', async () => {
    cacheApi({});
    await (await db()).put('media', { url: URL_7, blob: await blobOf('from database') });
    const { requests } = fakeServer({});

    expect(await text(await lookupMedia(URL_7))).toBe('from database');
    expect(requests).toEqual([]);
  });

  it('fetches with the session last and stores the answer in the local database', async () => {
    cacheApi({});
    const { requests } = fakeServer({ [`GET ${URL_7}`]: () => new Response('from network') });

    expect(await text(await lookupMedia(URL_7))).toBe('from network');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.headers.Authorization).toBe('Bearer access');
    expect(await (await (await db()).get('media', URL_7))?.blob.text()).toBe('from network');
  });

  it('counts empty blobs as missing at every step', async () => {
    cacheApi({ [URL_7]: new Response('') });
    await (await db()).put('media', { url: URL_7, blob: await blobOf('') });
    const { requests } = fakeServer({ [`GET ${URL_7}`]: () => new Response('') });

    expect(await lookupMedia(URL_7)).toBeNull();
    expect(requests).toHaveLength(1);
    expect((await (await db()).get('media', URL_7))?.blob.size).toBe(0);
  });

  it('answers nothing when the fetch fails', async () => {
    cacheApi({});
    fakeServer({});

    expect(await lookupMedia(URL_7)).toBeNull();
    expect(await (await db()).get('media', URL_7)).toBeUndefined();
  });
});
