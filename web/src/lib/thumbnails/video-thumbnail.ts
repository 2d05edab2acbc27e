import type { Thumbnail } from '../offline/db';
import { canvasImage, thumbnailCanvas } from './thumbnail-cache';

/** The first frame of the video at `url`, drawn to a canvas. */
export async function videoThumbnail(url: string): Promise<Thumbnail> {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  video.playsInline = true;
  const loaded = new Promise<void>((done, fail) => {
    video.addEventListener('loadeddata', () => done(), { once: true });
    video.addEventListener('error', () => fail(new Error('The video could not be decoded')), { once: true });
  });
  video.src = url;
  try {
    await loaded;
    if (!video.videoWidth) throw new Error('The video has no picture');
    const canvas = thumbnailCanvas(video.videoWidth, video.videoHeight);
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    return { image: await canvasImage(canvas) };
  } finally {
    video.removeAttribute('src');
    video.load();
  }
}
