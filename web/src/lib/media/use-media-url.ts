import { useEffect, useState } from 'react';
import { mediaObjectUrl } from './media-cache';

export type MediaState = { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed' };

/** The media at a server path as a displayable URL, fetched with the session's token. */
export function useMediaUrl(url: string | undefined): MediaState {
  const [loaded, setLoaded] = useState<{ source: string; objectUrl: string | null } | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    void mediaObjectUrl(url).then((objectUrl) => {
      if (live) setLoaded({ source: url, objectUrl });
    });
    return () => {
      live = false;
    };
  }, [url]);
  if (!url) return { status: 'failed' };
  if (loaded?.source !== url) return { status: 'loading' };
  return loaded.objectUrl ? { status: 'ready', url: loaded.objectUrl } : { status: 'failed' };
}
