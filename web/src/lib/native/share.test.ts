import { saveSession } from '../api/session-store';
import { fakeServer, json } from '../../testing/fake-server';
import { shareMedia } from './share';

const native = vi.hoisted(() => ({ on: false, share: vi.fn<(options: object) => Promise<object>>(async () => ({})) }));

vi.mock('@capacitor/core', () => ({ Capacitor: { isNativePlatform: () => native.on, getPlatform: () => (native.on ? 'android' : 'web') } }));
vi.mock('@capacitor/share', () => ({ Share: { share: native.share } }));
vi.mock('@capacitor/filesystem', () => ({
  Filesystem: { writeFile: vi.fn<(options: { path: string }) => Promise<{ uri: string }>>(async ({ path }: { path: string }) => ({ uri: `file:///cache/${path}` })) },
  Directory: { Cache: 'CACHE' },
}));

const MEDIA = { blob: new Blob(['pdf'], { type: 'application/pdf' }), filename: 'offer.pdf', mediaUrl: '/api/media/m1' };
const SIGNED = '/api/media/m1?exp=1700000000&sig=abc';

function signingServer() {
  return fakeServer({ 'POST /api/media/m1/share': () => json({ url: SIGNED, expires_at: '2026-12-01T00:00:00Z' }) });
}

/** The browser's share and clipboard abilities for one test. */
function browser({ files, url }: { files: boolean; url: boolean }) {
  const share = vi.fn<(data: ShareData) => Promise<undefined>>(async () => undefined);
  const writeText = vi.fn<(text: string) => Promise<undefined>>(async () => undefined);
  vi.stubGlobal('navigator', {
    ...navigator,
    canShare: files ? () => true : () => false,
    share: url || files ? share : undefined,
    clipboard: { writeText },
  });
  return { share, writeText };
}

beforeEach(() => {
  native.on = false;
  saveSession({ accessToken: 'access', refreshToken: 'refresh' });
});

describe('share', () => {
  it('hands the file itself to the native share sheet', async () => {
    native.on = true;
    const { requests } = signingServer();

    expect(await shareMedia(MEDIA)).toBe('shared');

    expect(native.share).toHaveBeenCalledWith({ files: ['file:///cache/offer.pdf'] });
    expect(requests).toEqual([]);
  });

  it('on the web shares the file where the browser can share files', async () => {
    const { requests } = signingServer();
    const { share, writeText } = browser({ files: true, url: true });

    expect(await shareMedia(MEDIA)).toBe('shared');

    const [[data]] = share.mock.calls as [[ShareData]];
    expect(data.files?.[0]?.name).toBe('offer.pdf');
    expect(requests).toEqual([]);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('else shares a signed link made absolute', async () => {
    const { requests } = signingServer();
    const { share, writeText } = browser({ files: false, url: true });

    expect(await shareMedia(MEDIA)).toBe('shared');

    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/media/m1/share']);
    expect(share).toHaveBeenCalledWith({ url: `${window.location.origin}${SIGNED}` });
    expect(writeText).not.toHaveBeenCalled();
  });

  it('else copies the signed link to the clipboard', async () => {
    signingServer();
    const { writeText } = browser({ files: false, url: false });

    expect(await shareMedia(MEDIA)).toBe('copied');

    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}${SIGNED}`);
  });
});
