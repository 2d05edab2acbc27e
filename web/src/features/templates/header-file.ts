// The header media of a template: what a chosen file really is, told by its first bytes as the
// server tells it (server/src/templates/media.rs), and the limits per header type (spec section 5).

export type FileKind =
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'mp4'
  | '3gp'
  | 'm4a'
  | 'mp3'
  | 'ogg'
  | 'amr'
  | 'aac'
  | 'pdf'
  | 'ole'
  | 'zip'
  | 'other';

const MB = 1024 * 1024;

export type MediaFormat = 'IMAGE' | 'DOCUMENT' | 'VIDEO';

export interface HeaderMedia {
  format: MediaFormat;
  kinds: FileKind[];
  maxBytes: number;
  /** The file chooser's filter. */
  accept: string;
  /** Translation keys: no file, wrong type, too large, and the chooser's hint. */
  requiredKey: string;
  typeKey: string;
  sizeKey: string;
  hintKey: string;
}

export const HEADER_MEDIA: HeaderMedia[] = [
  {
    format: 'IMAGE',
    kinds: ['png', 'jpeg'],
    maxBytes: 5 * MB,
    accept: 'image/png,image/jpeg',
    requiredKey: 'templateForm.rules.headerFileRequiredImage',
    typeKey: 'invalidFileTypeImage',
    sizeKey: 'imageSizeExceedsLimit',
    hintKey: 'templateForm.hints.image',
  },
  {
    format: 'DOCUMENT',
    kinds: ['pdf'],
    maxBytes: 100 * MB,
    accept: 'application/pdf',
    requiredKey: 'templateForm.rules.headerFileRequiredDocument',
    typeKey: 'invalidFileTypeDocument',
    sizeKey: 'documentSizeExceedsLimit',
    hintKey: 'templateForm.hints.document',
  },
  {
    format: 'VIDEO',
    kinds: ['mp4'],
    maxBytes: 16 * MB,
    accept: 'video/mp4',
    requiredKey: 'templateForm.rules.headerFileRequiredVideo',
    typeKey: 'invalidFileTypeVideo',
    sizeKey: 'videoSizeExceedsLimit',
    hintKey: 'templateForm.hints.video',
  },
];

export function headerMedia(format: string): HeaderMedia | undefined {
  return HEADER_MEDIA.find((media) => media.format === format);
}

const ascii = (bytes: Uint8Array, start: number, end: number) => String.fromCharCode(...bytes.subarray(start, end));

/** The kind of a file from its first bytes (at least 12 of them when it has that many). */
export function sniff(bytes: Uint8Array): FileKind {
  const starts = (magic: number[]) => magic.every((byte, index) => bytes[index] === byte);
  const first = bytes[0] ?? 0;
  const second = bytes[1] ?? 0;
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'webp';
  if (ascii(bytes, 4, 8) === 'ftyp') {
    const brand = ascii(bytes, 8, 11);
    if (brand === 'M4A') return 'm4a';
    if (brand === '3gp' || brand === '3g2') return '3gp';
    // QuickTime files carry this brand; the Cloud API takes mp4 only.
    return brand === 'qt ' ? 'other' : 'mp4';
  }
  if (ascii(bytes, 0, 5) === '%PDF-') return 'pdf';
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (starts([0x50, 0x4b, 0x03, 0x04])) return 'zip';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (ascii(bytes, 0, 5) === '#!AMR') return 'amr';
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  if (bytes.length >= 2 && first === 0xff && (second & 0xf6) === 0xf0) return 'aac';
  if (bytes.length >= 2 && first === 0xff && (second & 0xe0) === 0xe0) return 'mp3';
  return 'other';
}

/** Reads the first bytes of a chosen file and tells its kind. */
export async function readKind(file: Blob): Promise<FileKind> {
  return sniff(new Uint8Array(await file.slice(0, 16).arrayBuffer()));
}

/** The translation key of the alert for a chosen file that the header cannot take, else null. */
export function fileProblem(media: HeaderMedia, kind: FileKind, size: number): string | null {
  if (!media.kinds.includes(kind)) return media.typeKey;
  return size > media.maxBytes ? media.sizeKey : null;
}

/** Reads a file as a data URL for the preview. */
export function readDataUrl(file: Blob): Promise<string> {
  return new Promise((done, failed) => {
    const reader = new FileReader();
    reader.onload = () => done(String(reader.result));
    reader.onerror = () => failed(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}
