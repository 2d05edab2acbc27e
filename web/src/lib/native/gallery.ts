// The device's photo library (native only): picking photos into the composer and saving a
// received photo or video into it.
import { writeCacheFile } from './files';

/** Spec: a gallery pick takes up to 10 photos at JPEG quality 90. */
export const GALLERY_LIMIT = 10;
export const GALLERY_QUALITY = 90;

/** Opens the photo picker; answers the chosen photos as files (none when cancelled). */
export async function pickPhotos(): Promise<File[]> {
  const { Camera } = await import('@capacitor/camera');
  const { photos } = await Camera.pickImages({ limit: GALLERY_LIMIT, quality: GALLERY_QUALITY });
  return Promise.all(
    photos.slice(0, GALLERY_LIMIT).map(async (photo, index) => {
      const blob = await (await fetch(photo.webPath)).blob();
      const extension = photo.format || 'jpeg';
      return new File([blob], `photo-${Date.now()}-${index + 1}.${extension}`, { type: blob.type || `image/${extension}` });
    }),
  );
}

/** The album saved media goes to (Android requires one; iOS shows it as an album too). */
export const GALLERY_ALBUM = 'Parley';

type MediaPlugin = (typeof import('@capacitor-community/media'))['Media'];

async function albumIdentifier(Media: MediaPlugin): Promise<string> {
  const find = async () => (await Media.getAlbums()).albums.find((album) => album.name === GALLERY_ALBUM)?.identifier;
  const existing = await find();
  if (existing) return existing;
  await Media.createAlbum({ name: GALLERY_ALBUM });
  const created = await find();
  if (!created) throw new Error('gallery album not created');
  return created;
}

/** Saves a photo or video to the device's library, in the Parley album. */
export async function saveToGallery(blob: Blob, filename: string): Promise<void> {
  const { Media } = await import('@capacitor-community/media');
  const path = await writeCacheFile(blob, filename);
  const options = { path, albumIdentifier: await albumIdentifier(Media) };
  if (blob.type.startsWith('video/')) await Media.saveVideo(options);
  else await Media.savePhoto(options);
}
