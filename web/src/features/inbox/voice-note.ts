// Voice notes (spec sections 4, 5 and 9): timer in mm:ss, recordings under 200 bytes discarded,
// a hold on touch screens cancelled by sliding left more than 70 px, audio preferably Ogg/Opus.
import { webmToOggOpus } from '../../lib/audio/ogg-opus';

export const MIN_AUDIO_BYTES = 200;
export const CANCEL_SLIDE_PX = 70;

/** What MediaRecorder is asked for: Ogg/Opus where the browser records it, else WebM/Opus to re-wrap. */
export const RECORDING_TYPES = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus'] as const;

export function recordingType(isTypeSupported: (type: string) => boolean): string | undefined {
  return RECORDING_TYPES.find(isTypeSupported);
}

/** Elapsed recording time as mm:ss (minutes keep counting past 59). */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** A hold that started at `startX` is cancelled once the pointer is more than 70 px to its left. */
export function slideCancels(startX: number, x: number): boolean {
  return startX - x > CANCEL_SLIDE_PX;
}

/**
 * The recording as a file to send: Ogg/Opus (WebM/Opus is re-wrapped, not re-encoded), or null
 * when it is under 200 bytes.
 */
export async function voiceNoteFile(recording: Blob): Promise<File | null> {
  if (recording.size < MIN_AUDIO_BYTES) return null;
  const bytes = new Uint8Array(await recording.arrayBuffer());
  const ogg = recording.type.startsWith('audio/webm') ? webmToOggOpus(bytes) : bytes;
  return new File([ogg], `voice-note-${Date.now()}.ogg`, { type: 'audio/ogg' });
}
