// pdf.js is loaded only when a PDF card needs a thumbnail, so it stays out of the inbox's first
// load; its worker is a separate file that Vite emits and names (`?url`).
// oxlint-disable-next-line import/default -- Vite answers `?url` imports with the file's URL
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { Thumbnail } from '../offline/db';
import { canvasImage, thumbnailCanvas } from './thumbnail-cache';

/** The first page of the PDF at `url` (an object URL) and its page count. */
export async function pdfThumbnail(url: string): Promise<Thumbnail> {
  const [pdfjs, bytes] = await Promise.all([import('pdfjs-dist'), fetch(url).then((response) => response.arrayBuffer())]);
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes) }).promise;
  try {
    const page = await pdf.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const canvas = thumbnailCanvas(natural.width, natural.height);
    const viewport = page.getViewport({ scale: canvas.width / natural.width });
    await page.render({ canvas, viewport }).promise;
    return { image: await canvasImage(canvas), pages: pdf.numPages };
  } finally {
    await pdf.destroy();
  }
}
