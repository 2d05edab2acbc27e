// Generated thumbnails (a PDF's first page, a video's first frame) are kept in the local
// database's thumbnails store, keyed by the media URL, so each is drawn once per device.
import { getThumbnail, putThumbnail, type Thumbnail } from '../offline/db';

const WIDTH_PX = 320;

/**
 * The thumbnail of the media at `key` from the local database, else made and stored. Local
 * previews (no key) are made every time; a database that cannot be used only costs the cache.
 */
export async function cachedThumbnail(key: string | undefined, make: () => Promise<Thumbnail>): Promise<Thumbnail> {
  if (!key) return make();
  const hit = await getThumbnail(key).catch(() => undefined);
  if (hit) return hit;
  const made = await make();
  await putThumbnail(key, made).catch(() => undefined);
  return made;
}

/** A canvas of `WIDTH_PX` wide (or less) for a picture of `width` × `height`. */
export function thumbnailCanvas(width: number, height: number): HTMLCanvasElement {
  const scale = Math.min(1, WIDTH_PX / width);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  return canvas;
}

export function canvasImage(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((done, fail) =>
    canvas.toBlob((blob) => (blob ? done(blob) : fail(new Error('The thumbnail could not be encoded'))), 'image/jpeg', 0.8),
  );
}
