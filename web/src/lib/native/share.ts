// Sharing a received file. Native: the share sheet with the file itself. Web, in order: the
// file through navigator.share where the browser can share files; else a signed, expiring link
// (one that works for whoever it is sent to, without a login) through navigator.share; else
// that link copied to the clipboard.
import { apiRequest } from '../api/client';
import { writeCacheFile } from './files';
import { isNative } from './platform';

export interface SharedMedia {
  blob: Blob;
  filename: string;
  /** The media's path on the server, `/api/media/{id}`. */
  mediaUrl: string;
}

/** How the file left: handed to a share sheet, or its link copied to the clipboard. */
export type ShareOutcome = 'shared' | 'copied';

/** A link to the media that needs no login (POST /api/media/{id}/share), made absolute. */
export async function signedMediaLink(mediaUrl: string): Promise<string> {
  const { url } = await apiRequest<{ url: string; expires_at: string }>(`${mediaUrl}/share`, { method: 'POST', json: {} });
  return new URL(url, window.location.origin).toString();
}

export async function shareMedia(media: SharedMedia): Promise<ShareOutcome> {
  if (isNative()) {
    const { Share } = await import('@capacitor/share');
    await Share.share({ files: [await writeCacheFile(media.blob, media.filename)] });
    return 'shared';
  }
  const file = new File([media.blob], media.filename, { type: media.blob.type });
  if (navigator.canShare?.({ files: [file] })) {
    await navigator.share({ files: [file] });
    return 'shared';
  }
  const link = await signedMediaLink(media.mediaUrl);
  if (typeof navigator.share === 'function') {
    await navigator.share({ url: link });
    return 'shared';
  }
  await navigator.clipboard.writeText(link);
  return 'copied';
}
