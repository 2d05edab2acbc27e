import { HEADER_MEDIA, fileProblem, headerMedia, readKind, sniff } from './header-file';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));

describe('header file', () => {
  it('tells the kind from the first bytes as the server does', () => {
    expect(sniff(bytes([0x89], 'PNG\r\n\x1a\n'))).toBe('png');
    expect(sniff(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniff(bytes('GIF89a'))).toBe('gif');
    expect(sniff(bytes([0, 0, 0, 0x18], 'ftypmp42'))).toBe('mp4');
    expect(sniff(bytes([0, 0, 0, 0x18], 'ftyp3gp4'))).toBe('3gp');
    expect(sniff(bytes([0, 0, 0, 0x18], 'ftypqt  '))).toBe('other');
    expect(sniff(bytes('%PDF-1.7'))).toBe('pdf');
    expect(sniff(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe('ole');
    expect(sniff(bytes('plain text'))).toBe('other');
    expect(sniff(new Uint8Array())).toBe('other');
  });

  it('reads the kind of a chosen file, whatever its name says', async () => {
    expect(await readKind(new File(['%PDF-1.4 ...'], 'photo.png', { type: 'image/png' }))).toBe('pdf');
  });

  it('names the alert for a wrong type, then for a size over the limit (limits inclusive)', () => {
    const image = headerMedia('IMAGE')!;
    expect(fileProblem(image, 'gif', 10)).toBe('invalidFileTypeImage');
    expect(fileProblem(image, 'jpeg', 5 * 1024 * 1024)).toBeNull();
    expect(fileProblem(image, 'jpeg', 5 * 1024 * 1024 + 1)).toBe('imageSizeExceedsLimit');
    expect(fileProblem(headerMedia('VIDEO')!, 'mp4', 16 * 1024 * 1024 + 1)).toBe('videoSizeExceedsLimit');
    expect(fileProblem(headerMedia('DOCUMENT')!, 'zip', 10)).toBe('invalidFileTypeDocument');
    expect(HEADER_MEDIA.map((media) => media.format)).toEqual(['IMAGE', 'DOCUMENT', 'VIDEO']);
    expect(headerMedia('TEXT')).toBeUndefined();
  });
});
