import { readFileSync } from 'node:fs';
import { formatElapsed, recordingType, slideCancels, voiceNoteFile } from './voice-note';

describe('voice notes', () => {

  it('shows the recording time as mm:ss', () => {
    expect(formatElapsed(0)).toBe('00:00');
    expect(formatElapsed(999)).toBe('00:00');
    expect(formatElapsed(65_400)).toBe('01:05');
    expect(formatElapsed(59 * 60_000 + 59_000)).toBe('59:59');
    expect(formatElapsed(75 * 60_000)).toBe('75:00');
  });

  it('cancels a hold only after sliding left more than 70 px', () => {
    expect(slideCancels(300, 230)).toBe(false);
    expect(slideCancels(300, 229)).toBe(true);
    expect(slideCancels(300, 400)).toBe(false);
  });

  it('records Ogg/Opus where the browser can, else WebM/Opus', () => {
    expect(recordingType(() => true)).toBe('audio/ogg;codecs=opus');
    expect(recordingType((type) => type.startsWith('audio/webm'))).toBe('audio/webm;codecs=opus');
    expect(recordingType(() => false)).toBeUndefined();
  });

  it('discards recordings under 200 bytes', async () => {
    expect(await voiceNoteFile(new Blob([new Uint8Array(199)], { type: 'audio/webm;codecs=opus' }))).toBeNull();
  });

  it('sends WebM recordings re-wrapped as Ogg/Opus', async () => {
    const webm = readFileSync('src/lib/audio/chromium-recording.webm');
    const file = await voiceNoteFile(new Blob([webm], { type: 'audio/webm;codecs=opus' }));
    expect(file?.type).toBe('audio/ogg');
    expect(file?.name).toMatch(/\.ogg$/);
    const head = new Uint8Array(await file!.arrayBuffer()).subarray(0, 4);
    expect(String.fromCharCode(...head)).toBe('OggS');
  });

  it('keeps Ogg recordings as they are', async () => {
    const ogg = new Uint8Array(300).fill(7);
    ogg.set([0x4f, 0x67, 0x67, 0x53]);
    const file = await voiceNoteFile(new Blob([ogg], { type: 'audio/ogg;codecs=opus' }));
    expect(new Uint8Array(await file!.arrayBuffer())).toEqual(ogg);
  });
});
