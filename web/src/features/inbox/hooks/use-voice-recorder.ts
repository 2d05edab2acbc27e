import { useCallback, useEffect, useRef, useState } from 'react';
import { recordingType, voiceNoteFile } from '../voice-note';

/** Idle; recording (since a time); or stopped with the file and a URL to play it back. */
export type Recording = { phase: 'idle' } | { phase: 'recording'; startedAt: number } | { phase: 'stopped'; file: File; url: string };

interface Session {
  recorder: MediaRecorder;
  stream: MediaStream;
  stopped: Promise<Blob>;
}

function record(stream: MediaStream): Session {
  const mimeType = recordingType((type) => MediaRecorder.isTypeSupported(type));
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  const chunks: Blob[] = [];
  recorder.addEventListener('dataavailable', (event) => chunks.push(event.data));
  const stopped = new Promise<Blob>((done) =>
    recorder.addEventListener('stop', () => done(new Blob(chunks, { type: recorder.mimeType || mimeType || '' })), { once: true }),
  );
  recorder.start();
  return { recorder, stream, stopped };
}

function end(session: Session): Promise<Blob> {
  if (session.recorder.state !== 'inactive') session.recorder.stop();
  session.stream.getTracks().forEach((track) => track.stop());
  return session.stopped;
}

/**
 * The microphone as a voice-note recorder: `start` (false when the microphone is refused),
 * `stop` (the file, or null when too short and discarded; kept for playback when `review`),
 * `cancel` and `discard`.
 */
export function useVoiceRecorder() {
  const [recording, setRecording] = useState<Recording>({ phase: 'idle' });
  const session = useRef<Session | null>(null);

  const start = useCallback(async () => {
    if (session.current) return true;
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setRecording({ phase: 'idle' });
      return false;
    }
    session.current = record(stream);
    setRecording({ phase: 'recording', startedAt: Date.now() });
    return true;
  }, []);

  const stop = useCallback(async (review: boolean) => {
    const current = session.current;
    session.current = null;
    if (!current) return null;
    const file = await voiceNoteFile(await end(current)).catch(() => null);
    setRecording(file && review ? { phase: 'stopped', file, url: URL.createObjectURL(file) } : { phase: 'idle' });
    return file;
  }, []);

  const cancel = useCallback(() => {
    const current = session.current;
    session.current = null;
    if (current) void end(current);
    setRecording({ phase: 'idle' });
  }, []);

  const discard = useCallback(() => setRecording({ phase: 'idle' }), []);

  // The playback URL lives as long as its recording; the microphone is released on unmount.
  const url = recording.phase === 'stopped' ? recording.url : null;
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  useEffect(() => () => void (session.current && end(session.current)), []);

  return { recording, start, stop, cancel, discard };
}
