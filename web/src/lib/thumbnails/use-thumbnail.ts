import { useEffect, useState } from 'react';
import { mediaObjectUrl } from '../media/media-cache';
import type { Thumbnail } from '../offline/db';
import { cachedThumbnail } from './thumbnail-cache';

/** Loading, then the drawn image (with a document's page count), or `icon` when none can be drawn. */
export type ThumbnailState = { status: 'loading' } | { status: 'icon' } | { status: 'image'; url: string; pages?: number };

type Loaded = { source: string; url: string | null; pages?: number };

/**
 * The thumbnail of the media at `mediaUrl`: a server path (cached in the local database; the media
 * itself is fetched only when no thumbnail is stored) or the blob: URL of a file being sent.
 * `make` draws it from a displayable URL and must be a stable function.
 */
export function useThumbnail(mediaUrl: string | undefined, make: (url: string) => Promise<Thumbnail>): ThumbnailState {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    if (!mediaUrl) return;
    let live = true;
    let objectUrl: string | null = null;
    const local = mediaUrl.startsWith('blob:');
    cachedThumbnail(local ? undefined : mediaUrl, async () => {
      const source = local ? mediaUrl : await mediaObjectUrl(mediaUrl);
      if (!source) throw new Error('The media could not be fetched');
      return make(source);
    }).then(
      ({ image, pages }) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(image);
        setLoaded({ source: mediaUrl, url: objectUrl, pages });
      },
      () => live && setLoaded({ source: mediaUrl, url: null }),
    );
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [mediaUrl, make]);
  if (!mediaUrl) return { status: 'icon' };
  if (loaded?.source !== mediaUrl) return { status: 'loading' };
  return loaded.url ? { status: 'image', url: loaded.url, pages: loaded.pages } : { status: 'icon' };
}
