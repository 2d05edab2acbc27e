// Media URLs are server paths that need the bearer token, so they are fetched through the API
// client and kept as object URLs for the session.
import { apiResponse } from '../api/client';

const cache = new Map<string, Promise<string | null>>();

/** An object URL for the media, or null when the fetch fails or the blob is empty. */
export function mediaObjectUrl(url: string): Promise<string | null> {
  let entry = cache.get(url);
  if (!entry) {
    entry = apiResponse(url)
      .then((response) => response.blob())
      .then((blob) => (blob.size > 0 ? URL.createObjectURL(blob) : null))
      .catch(() => null);
    entry.then((value) => value === null && cache.delete(url)).catch(() => undefined);
    cache.set(url, entry);
  }
  return entry;
}

export function clearMediaCache(): void {
  cache.forEach((entry) => void entry.then((objectUrl) => objectUrl && URL.revokeObjectURL(objectUrl)));
  cache.clear();
}
