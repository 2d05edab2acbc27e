import 'fake-indexeddb/auto';
import { Blob as NodeBlob } from 'node:buffer';
import { getThumbnail, type Thumbnail } from '../offline/db';
import { cachedThumbnail } from './thumbnail-cache';

const jpeg = (text: string) => new Blob([text], { type: 'image/jpeg' });

describe('thumbnail cache', () => {
  // jsdom's Blob cannot be structured-cloned into (fake) IndexedDB; browsers' and Node's can.
  beforeEach(() => vi.stubGlobal('Blob', NodeBlob));

  it('draws a thumbnail once and then reads it from the local database', async () => {
    const make = vi.fn<() => Promise<Thumbnail>>().mockResolvedValue({ image: jpeg('page one'), pages: 3 });
    const first = await cachedThumbnail('/api/media/pdf-1', make);
    expect(first.pages).toBe(3);
    expect(make).toHaveBeenCalledTimes(1);
    expect(await (await getThumbnail('/api/media/pdf-1'))?.image.text()).toBe('page one');

    const again = await cachedThumbnail('/api/media/pdf-1', make);
    expect(make).toHaveBeenCalledTimes(1);
    expect(again.pages).toBe(3);
    expect(await again.image.text()).toBe('page one');
  });

  it('keeps a video frame without a page count', async () => {
    await cachedThumbnail('/api/media/video-1', () => Promise.resolve({ image: jpeg('frame') }));
    const make = vi.fn<() => Promise<Thumbnail>>();
    const cached = await cachedThumbnail('/api/media/video-1', make);
    expect(make).not.toHaveBeenCalled();
    expect(cached.pages).toBeUndefined();
    expect(await cached.image.text()).toBe('frame');
  });

  it('does not store local previews or failures', async () => {
    const make = vi.fn<() => Promise<Thumbnail>>().mockResolvedValue({ image: jpeg('preview') });
    await cachedThumbnail(undefined, make);
    await cachedThumbnail(undefined, make);
    expect(make).toHaveBeenCalledTimes(2);

    await expect(cachedThumbnail('/api/media/broken', () => Promise.reject(new Error('not a pdf')))).rejects.toThrow('not a pdf');
    expect(await getThumbnail('/api/media/broken')).toBeUndefined();
  });
});
