import { GALLERY_ALBUM, pickPhotos, saveToGallery } from './gallery';

const plugins = vi.hoisted(() => ({
  pickImages: vi.fn<(options: { limit: number; quality: number }) => Promise<{ photos: { webPath: string; format: string }[] }>>(),
  writeFile: vi.fn<(options: { path: string }) => Promise<{ uri: string }>>(async ({ path }: { path: string }) => ({ uri: `file:///cache/${path}` })),
  getAlbums: vi.fn<() => Promise<{ albums: { name: string; identifier: string }[] }>>(),
  createAlbum: vi.fn<(options: { name: string }) => Promise<undefined>>(async () => undefined),
  savePhoto: vi.fn<(options: object) => Promise<{ filePath: string }>>(async () => ({ filePath: 'saved' })),
  saveVideo: vi.fn<(options: object) => Promise<{ filePath: string }>>(async () => ({ filePath: 'saved' })),
}));

vi.mock('@capacitor/camera', () => ({ Camera: { pickImages: plugins.pickImages } }));
vi.mock('@capacitor/filesystem', () => ({ Filesystem: { writeFile: plugins.writeFile }, Directory: { Cache: 'CACHE' } }));
vi.mock('@capacitor-community/media', () => ({
  Media: { getAlbums: plugins.getAlbums, createAlbum: plugins.createAlbum, savePhoto: plugins.savePhoto, saveVideo: plugins.saveVideo },
}));

describe('gallery', () => {
  it('picks at most 10 photos at quality 90 and hands them over as files', async () => {
    const photos = Array.from({ length: 10 }, (_, index) => ({ webPath: `capacitor://photo/${index}`, format: 'jpeg' }));
    plugins.pickImages.mockResolvedValue({ photos });
    vi.stubGlobal('fetch', vi.fn(async () => ({ blob: async () => new Blob(['jpeg bytes'], { type: 'image/jpeg' }) })));

    const files = await pickPhotos();

    expect(plugins.pickImages).toHaveBeenCalledWith({ limit: 10, quality: 90 });
    expect(files).toHaveLength(10);
    expect(files[0]?.type).toBe('image/jpeg');
    expect(files[0]?.name).toMatch(/^photo-\d+-1\.jpeg$/);
  });

  it('answers no files when the picker is closed without a choice', async () => {
    plugins.pickImages.mockResolvedValue({ photos: [] });
    expect(await pickPhotos()).toEqual([]);
  });

  it('saves a photo through the cache into the Parley album, creating it the first time', async () => {
    plugins.getAlbums.mockResolvedValueOnce({ albums: [{ name: 'Camera', identifier: 'cam' }] });
    plugins.getAlbums.mockResolvedValueOnce({ albums: [{ name: GALLERY_ALBUM, identifier: 'parley-album' }] });

    await saveToGallery(new Blob(['png'], { type: 'image/png' }), 'photo.png');

    expect(plugins.createAlbum).toHaveBeenCalledWith({ name: 'Parley' });
    expect(plugins.writeFile).toHaveBeenCalledWith({ path: 'photo.png', data: expect.any(String), directory: 'CACHE' });
    expect(plugins.savePhoto).toHaveBeenCalledWith({ path: 'file:///cache/photo.png', albumIdentifier: 'parley-album' });
  });

  it('saves a video as a video into the existing album', async () => {
    plugins.createAlbum.mockClear();
    plugins.getAlbums.mockResolvedValue({ albums: [{ name: GALLERY_ALBUM, identifier: 'parley-album' }] });

    await saveToGallery(new Blob(['mp4'], { type: 'video/mp4' }), 'clip.mp4');

    expect(plugins.createAlbum).not.toHaveBeenCalled();
    expect(plugins.saveVideo).toHaveBeenCalledWith({ path: 'file:///cache/clip.mp4', albumIdentifier: 'parley-album' });
  });
});
