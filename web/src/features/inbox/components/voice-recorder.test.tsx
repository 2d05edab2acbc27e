import { act, fireEvent, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { renderWithApp } from '../../../testing/render';
import { VoiceRecorder } from './voice-recorder';

// jsdom has no microphone: a MediaRecorder stand-in hands over what Chromium recorded (the real
// recorder runs in web/e2e/voice-note.test.mjs).
const chromiumWebm = readFileSync('src/lib/audio/chromium-recording.webm');

class FakeRecorder extends EventTarget {
  static isTypeSupported = (type: string) => type.startsWith('audio/webm');
  static data: Blob = new Blob([chromiumWebm], { type: 'audio/webm;codecs=opus' });
  state: RecordingState = 'inactive';
  mimeType: string;
  constructor(_stream: MediaStream, options?: MediaRecorderOptions) {
    super();
    this.mimeType = options?.mimeType ?? '';
  }
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.dispatchEvent(Object.assign(new Event('dataavailable'), { data: FakeRecorder.data }));
    this.dispatchEvent(new Event('stop'));
  }
}

const trackStop = vi.fn<() => void>();

function setUp(getUserMedia: () => Promise<unknown> = () => Promise.resolve({ getTracks: () => [{ stop: trackStop }] })) {
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  Object.defineProperty(navigator, 'mediaDevices', { value: { getUserMedia }, configurable: true });
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:voice', revokeObjectURL: () => undefined }));
  const onSend = vi.fn<(file: File) => void>();
  const toast = vi.fn<ShowToast>();
  renderWithApp(<VoiceRecorder disabled={false} onSend={onSend} />, toast);
  return { onSend, toast, mic: screen.getByRole('button', { name: 'Record a voice note' }) };
}

/** Lets the microphone promise and the file conversion settle. */
async function settle() {
  for (let round = 0; round < 5; round += 1) await act(() => new Promise((done) => setTimeout(done, 10)));
}

describe('voice recorder', () => {
  beforeEach(() => {
    FakeRecorder.data = new Blob([chromiumWebm], { type: 'audio/webm;codecs=opus' });
    trackStop.mockClear();
  });

  it('counts mm:ss while recording, plays it back, then sends it as Ogg', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval'] });
    try {
      const { onSend, mic } = setUp();
      fireEvent.click(mic);
      await settle();
      expect(screen.getByRole('timer', { name: 'Recording time' })).toHaveTextContent('00:00');
      act(() => vi.advanceTimersByTime(65_000));
      expect(screen.getByRole('timer', { name: 'Recording time' })).toHaveTextContent('01:05');

      fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
      await settle();
      expect(trackStop).toHaveBeenCalled();
      expect(screen.getByLabelText('Voice note preview')).toHaveAttribute('src', 'blob:voice');
      expect(onSend).not.toHaveBeenCalled();

      fireEvent.click(screen.getByRole('button', { name: 'Send voice note' }));
      expect(onSend).toHaveBeenCalledTimes(1);
      const file = onSend.mock.calls[0]![0];
      expect(file.type).toBe('audio/ogg');
      expect(String.fromCharCode(...new Uint8Array(await file.arrayBuffer()).subarray(0, 4))).toBe('OggS');
      expect(screen.getByRole('button', { name: 'Record a voice note' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('deletes a stopped recording without sending it', async () => {
    const { onSend, mic } = setUp();
    fireEvent.click(mic);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByLabelText('Voice note preview')).not.toBeInTheDocument();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('discards a recording under 200 bytes', async () => {
    FakeRecorder.data = new Blob([new Uint8Array(199)], { type: 'audio/webm;codecs=opus' });
    const { onSend, mic } = setUp();
    fireEvent.click(mic);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    await settle();
    expect(screen.queryByLabelText('Voice note preview')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record a voice note' })).toBeInTheDocument();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('says microphoneAccessDenied when the microphone is refused, and stays idle', async () => {
    const { toast, mic } = setUp(() => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')));
    fireEvent.click(mic);
    await settle();
    expect(toast).toHaveBeenCalledWith('Microphone access was denied.', 'error', 5000);
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record a voice note' })).toBeInTheDocument();
  });

  it('on touch, records while held and sends on release', async () => {
    const { onSend, mic } = setUp();
    fireEvent.pointerDown(mic, { pointerType: 'touch', clientX: 300 });
    await settle();
    expect(screen.getByText('Slide left to cancel')).toBeInTheDocument();
    fireEvent.pointerMove(window, { pointerType: 'touch', clientX: 230 }); // 70 px: not more than 70
    fireEvent.pointerUp(window, { pointerType: 'touch', clientX: 230 });
    await settle();
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(onSend.mock.calls[0]![0].type).toBe('audio/ogg');
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  });

  it('on touch, sliding left more than 70 px cancels', async () => {
    const { onSend, mic } = setUp();
    fireEvent.pointerDown(mic, { pointerType: 'touch', clientX: 300 });
    await settle();
    fireEvent.pointerMove(window, { pointerType: 'touch', clientX: 229 });
    await settle();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    fireEvent.pointerUp(window, { pointerType: 'touch', clientX: 229 });
    await settle();
    expect(onSend).not.toHaveBeenCalled();
    expect(trackStop).toHaveBeenCalled();
  });
});
