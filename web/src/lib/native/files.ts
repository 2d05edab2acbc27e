// Files on the device: the cache (to hand a file to the share sheet or the gallery) and the
// Documents folder (spec: a failed write is retried after creating the folder, then tried in
// Documents itself, then the browser download is used).
import { downloadFile } from '../media/download-file';
import { isNative } from './platform';

/** The app's own folder under Documents. */
export const DOCUMENTS_FOLDER = 'Parley';

export function blobToBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(blob);
  });
}

/** Writes the blob to the app's cache and answers its file:// URI. */
export async function writeCacheFile(blob: Blob, filename: string): Promise<string> {
  const { Filesystem, Directory } = await import('@capacitor/filesystem');
  const written = await Filesystem.writeFile({ path: filename, data: await blobToBase64(blob), directory: Directory.Cache });
  return written.uri;
}

/** Where a document ended up: a folder on the device, or the browser's downloads. */
export type SavedTo = 'device' | 'download';

/** Saves a document: natively into Documents/Parley, on the web as a download of `url` (a blob: URL). */
export async function saveDocument(blob: Blob, url: string, filename: string): Promise<SavedTo> {
  if (isNative()) {
    const { Filesystem, Directory } = await import('@capacitor/filesystem');
    const data = await blobToBase64(blob);
    const attempts = [
      () => Filesystem.writeFile({ path: `${DOCUMENTS_FOLDER}/${filename}`, data, directory: Directory.Documents }),
      async () => {
        await Filesystem.mkdir({ path: DOCUMENTS_FOLDER, directory: Directory.Documents, recursive: true });
        return Filesystem.writeFile({ path: `${DOCUMENTS_FOLDER}/${filename}`, data, directory: Directory.Documents });
      },
      () => Filesystem.writeFile({ path: filename, data, directory: Directory.Documents }),
    ];
    for (const attempt of attempts) {
      try {
        await attempt();
        return 'device';
      } catch (error) {
        console.warn('document not written', error);
      }
    }
  }
  downloadFile(url, filename);
  return 'download';
}
