/**
 * Saves the file at `url` (a blob: URL) under `filename`. A customer's file is never opened as a
 * page in the app's origin, where its script could read the session: it is always downloaded.
 */
export function downloadFile(url: string, filename: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.click();
}
