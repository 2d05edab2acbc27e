// Media URLs are server paths that need the bearer token. Lookup order (spec section 4): the
// Cache API (filled by the service worker's runtime cache), then the local database, then the
// network, whose answer is stored in the local database. Empty blobs count as missing; a failed
// fetch answers nothing. Results are kept as object URLs for the session.
import { apiResponse } from '../api/client';
import { db } from '../offline/db';

/** The service worker's runtime cache of media answers. */
export const MEDIA_CACHE = 'parley-media';

export function isMediaPath(pathname: string): boolean {
  return pathname.startsWith('/api/media/');
}

const present = (blob: Blob | undefined): blob is Blob => !!blob && blob.size > 0;

async function fromCacheApi(url: string): Promise<Blob | undefined> {
  if (typeof caches === 'undefined') return undefined;
  return (await caches.match(url))?.blob();
}

async function fromDatabase(url: string): Promise<Blob | undefined> {
  return (await (await db()).get('media', url))?.blob;
}

async function store(url: string, blob: Blob): Promise<void> {
  try {
    await (await db()).put('media', { url, blob });
  } catch (error) {
    console.warn('media not stored', error);
  }
}

async function fromNetwork(url: string): Promise<Blob | undefined> {
  const blob = await (await apiResponse(url)).blob();
  if (present(blob)) await store(url, blob);
  return blob;
}

/** The media's blob from the first source that has it, or null. */
export async function lookupMedia(url: string): Promise<Blob | null> {
  for (const source of [fromCacheApi, fromDatabase, fromNetwork]) {
    const blob = await source(url).catch(() => undefined);
    if (present(blob)) return blob;
  }
  return null;
}

const cache = new Map<string, Promise<string | null>>();

/** An object URL for the media, or null when no source has it. */
export function mediaObjectUrl(url: string): Promise<string | null> {
  let entry = cache.get(url);
  if (!entry) {
    entry = lookupMedia(url).then((blob) => (blob ? URL.createObjectURL(blob) : null));
    entry.then((value) => value === null && cache.delete(url)).catch(() => undefined);
    cache.set(url, entry);
  }
  return entry;
}

export function clearMediaCache(): void {
  cache.forEach((entry) => void entry.then((objectUrl) => objectUrl && URL.revokeObjectURL(objectUrl)));
  cache.clear();
}
