import { readFileSync } from 'node:fs';
import { oggCrc, opusSamples, readWebmOpus, webmToOggOpus } from './ogg-opus';

// 1.5 s that Debian's Chromium recorded from its fake microphone (MediaRecorder, audio/webm;codecs=opus).
const recording = new Uint8Array(readFileSync('src/lib/audio/chromium-recording.webm'));

interface Page {
  flags: number;
  granule: bigint;
  sequence: number;
  crcOk: boolean;
  packets: Uint8Array[];
}

/** Splits Ogg bytes into pages and their packets (no packet spans two pages here). */
function pages(ogg: Uint8Array): Page[] {
  const found: Page[] = [];
  let at = 0;
  while (at < ogg.length) {
    const view = new DataView(ogg.buffer, ogg.byteOffset + at);
    expect(String.fromCharCode(...ogg.subarray(at, at + 4))).toBe('OggS');
    const count = ogg[at + 26] ?? 0;
    const lacing = Array.from(ogg.subarray(at + 27, at + 27 + count));
    const length = 27 + count + lacing.reduce((sum, value) => sum + value, 0);
    const copy = ogg.slice(at, at + length);
    copy.fill(0, 22, 26);
    const packets: Uint8Array[] = [];
    let start = at + 27 + count;
    let size = 0;
    for (const value of lacing) {
      size += value;
      if (value < 255) {
        packets.push(ogg.subarray(start, start + size));
        start += size;
        size = 0;
      }
    }
    found.push({
      flags: ogg[at + 5] ?? 0,
      granule: view.getBigInt64(6, true),
      sequence: view.getUint32(18, true),
      crcOk: oggCrc(copy) === view.getUint32(22, true),
      packets,
    });
    at += length;
  }
  return found;
}

describe('WebM/Opus to Ogg/Opus', () => {
  it('computes the Ogg CRC (check value of "123456789")', () => {
    expect(oggCrc(new TextEncoder().encode('123456789'))).toBe(0x89a1897f);
  });

  it('counts the samples of an Opus packet from its TOC byte', () => {
    expect(opusSamples(Uint8Array.of(0xfb, 0x03))).toBe(2880); // CELT 20 ms, 3 frames
    expect(opusSamples(Uint8Array.of(0x08))).toBe(960); // SILK 20 ms, one frame
    expect(opusSamples(Uint8Array.of(0x79))).toBe(1920); // hybrid 20 ms, two frames
  });

  it('reads the Opus header and packets from Chromium’s recording', () => {
    const { head, packets } = readWebmOpus(recording);
    expect(new TextDecoder().decode(head.subarray(0, 8))).toBe('OpusHead');
    expect(packets.length).toBeGreaterThan(10);
    expect(packets.every((packet) => opusSamples(packet) > 0)).toBe(true);
  });

  it('re-wraps the same packets into valid Ogg pages', () => {
    const { head, packets } = readWebmOpus(recording);
    const ogg = pages(webmToOggOpus(recording));
    expect(ogg.every((page) => page.crcOk)).toBe(true);
    expect(ogg.map((page) => page.sequence)).toEqual(ogg.map((_, index) => index));
    expect(ogg[0]).toMatchObject({ flags: 0x02, granule: 0n, packets: [head] });
    expect(new TextDecoder().decode(ogg[1]?.packets[0]?.subarray(0, 8))).toBe('OpusTags');
    expect(ogg.at(-1)?.flags).toBe(0x04);
    expect(ogg.slice(2).flatMap((page) => page.packets)).toEqual(packets);
    const samples = packets.reduce((sum, packet) => sum + opusSamples(packet), 0);
    expect(ogg.at(-1)?.granule).toBe(BigInt(samples));
    // About 1.5 s of audio at 48 kHz.
    expect(samples / 48_000).toBeGreaterThan(1);
    expect(samples / 48_000).toBeLessThan(2);
  });

  it('refuses bytes that are not WebM', () => {
    expect(() => webmToOggOpus(new TextEncoder().encode('OggS not webm'))).toThrow(/Not a WebM file/);
  });
});
