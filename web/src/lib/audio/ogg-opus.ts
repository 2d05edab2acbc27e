// Chromium's MediaRecorder writes Opus only inside WebM, while the Cloud API takes voice notes as
// Ogg/Opus. Both are containers around the same Opus packets, so a recording is re-wrapped
// (RFC 7845) without decoding: every packet is copied byte for byte into Ogg pages.

/** EBML element ids (Matroska) that the re-wrap reads. */
const ID = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  cluster: 0x1f43b675,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  blockGroup: 0xa0,
  simpleBlock: 0xa3,
  block: 0xa1,
  trackNumber: 0xd7,
  codecId: 0x86,
  codecPrivate: 0x63a2,
} as const;

/** Elements whose children are read in place (a recording in progress leaves their size unknown). */
const CONTAINERS = new Set<number>([ID.segment, ID.cluster, ID.tracks, ID.trackEntry, ID.blockGroup]);

/** Ogg pages hold at most 255 lacing values. */
const MAX_SEGMENTS = 255;

/** A variable-length EBML number at `at`: its value (the length marker kept for ids) and width. */
function readVint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; width: number; unknown: boolean } {
  const first = bytes[at];
  if (first === undefined || first === 0) throw new Error(`Not a WebM file: bad number at byte ${at}`);
  const width = Math.clz32(first) - 23;
  if (at + width > bytes.length) throw new Error('Not a WebM file: it ends inside an element header');
  let value = keepMarker ? first : first & (0xff >> width);
  let allOnes = value === (0xff >> width);
  for (let index = 1; index < width; index += 1) {
    const byte = bytes[at + index] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, width, unknown: !keepMarker && allOnes };
}

interface Track {
  number: number;
  codecId?: string;
  codecPrivate?: Uint8Array;
}

/** The Opus track's header (OpusHead) and its packets, in order, from a WebM file. */
export function readWebmOpus(webm: Uint8Array): { head: Uint8Array; packets: Uint8Array[] } {
  if (readVint(webm, 0, true).value !== ID.ebml) throw new Error('Not a WebM file: no EBML header');
  const tracks: Track[] = [];
  const blocks: { track: number; payload: Uint8Array }[] = [];
  let at = 0;
  while (at < webm.length) {
    const id = readVint(webm, at, true);
    const size = readVint(webm, at + id.width, false);
    const start = at + id.width + size.width;
    if (CONTAINERS.has(id.value)) {
      if (id.value === ID.trackEntry) tracks.push({ number: 0 });
      at = start;
      continue;
    }
    if (size.unknown) throw new Error('Not a WebM file: an element of unknown size');
    const data = webm.subarray(start, start + size.value);
    const track = tracks.at(-1);
    if (id.value === ID.trackNumber && track) track.number = data.reduce((number, byte) => number * 256 + byte, 0);
    else if (id.value === ID.codecId && track) track.codecId = new TextDecoder().decode(data);
    else if (id.value === ID.codecPrivate && track) track.codecPrivate = data;
    else if (id.value === ID.simpleBlock || id.value === ID.block) {
      // Track number, a 16-bit time offset, then flags whose lacing bits must be clear.
      const number = readVint(data, 0, false);
      const flags = data[number.width + 2] ?? 0;
      if (flags & 0x06) throw new Error('Laced WebM blocks are not supported');
      blocks.push({ track: number.value, payload: data.subarray(number.width + 3) });
    }
    at = start + size.value;
  }
  const opus = tracks.find((track) => track.codecId === 'A_OPUS');
  if (!opus?.codecPrivate) throw new Error('The WebM file has no Opus track');
  return { head: opus.codecPrivate, packets: blocks.filter((block) => block.track === opus.number).map((block) => block.payload) };
}

/** Samples (at 48 kHz) in one Opus packet, from its TOC byte (RFC 6716 section 3.1). */
export function opusSamples(packet: Uint8Array): number {
  const toc = packet[0] ?? 0;
  const config = toc >> 3;
  const frameSamples =
    config < 12 ? [480, 960, 1920, 2880][config & 3] : config < 16 ? [480, 960][config & 1] : [120, 240, 480, 960][config & 3];
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return (frameSamples ?? 0) * frames;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let crc = index << 24;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x80000000 ? (crc << 1) ^ 0x04c11db7 : crc << 1;
  return crc >>> 0;
});

/** Ogg's CRC-32: polynomial 0x04C11DB7, no reflection, initial value and final xor 0. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

const BEGINNING = 0x02;
const END = 0x04;

function lacing(packet: Uint8Array): number[] {
  return [...Array.from({ length: Math.floor(packet.length / 255) }, () => 255), packet.length % 255];
}

function page(packets: Uint8Array[], granule: bigint, serial: number, sequence: number, flags: number): Uint8Array {
  const segments = packets.flatMap(lacing);
  const bodyLength = packets.reduce((sum, packet) => sum + packet.length, 0);
  const bytes = new Uint8Array(27 + segments.length + bodyLength);
  const view = new DataView(bytes.buffer);
  bytes.set([0x4f, 0x67, 0x67, 0x53, 0, flags]); // "OggS", version 0
  view.setBigInt64(6, granule, true);
  view.setUint32(14, serial, true);
  view.setUint32(18, sequence, true);
  bytes[26] = segments.length;
  bytes.set(segments, 27);
  let at = 27 + segments.length;
  for (const packet of packets) {
    bytes.set(packet, at);
    at += packet.length;
  }
  view.setUint32(22, oggCrc(bytes), true);
  return bytes;
}

function opusTags(): Uint8Array {
  const vendor = new TextEncoder().encode('Parley');
  const bytes = new Uint8Array(8 + 4 + vendor.length + 4);
  bytes.set(new TextEncoder().encode('OpusTags'));
  new DataView(bytes.buffer).setUint32(8, vendor.length, true);
  bytes.set(vendor, 12);
  return bytes; // the comment count stays 0
}

/** Ogg/Opus bytes carrying the same Opus packets as the WebM recording. */
export function webmToOggOpus(webm: Uint8Array): Uint8Array<ArrayBuffer> {
  const { head, packets } = readWebmOpus(webm);
  if (packets.length === 0) throw new Error('The recording holds no audio');
  const serial = crypto.getRandomValues(new Uint32Array(1))[0] ?? 1;
  const pages = [page([head], 0n, serial, 0, BEGINNING), page([opusTags()], 0n, serial, 1, 0)];
  // The granule position of a page counts every sample up to its last packet (pre-skip included).
  let granule = 0n;
  let pending: Uint8Array[] = [];
  let segments = 0;
  packets.forEach((packet, index) => {
    const needed = lacing(packet).length;
    if (segments + needed > MAX_SEGMENTS) {
      pages.push(page(pending, granule, serial, pages.length, 0));
      pending = [];
      segments = 0;
    }
    pending.push(packet);
    segments += needed;
    granule += BigInt(opusSamples(packet));
    if (index === packets.length - 1) pages.push(page(pending, granule, serial, pages.length, END));
  });
  const out = new Uint8Array(pages.reduce((sum, bytes) => sum + bytes.length, 0));
  let at = 0;
  for (const bytes of pages) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}
