import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../../../components/icon';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { useVoiceRecorder } from '../hooks/use-voice-recorder';
import { formatElapsed, slideCancels } from '../voice-note';

function Elapsed({ since }: { since: number }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return (
    <span role="timer" aria-label={t('voice.elapsed')} className="voice-elapsed">
      {formatElapsed(now - since)}
    </span>
  );
}

/**
 * The microphone button of the composer. A click records until stopped, then offers playback with
 * send or delete; on touch screens holding records, releasing sends and sliding left cancels.
 */
export function VoiceRecorder({ disabled, onSend }: { disabled: boolean; onSend: (file: File) => void }) {
  const { t } = useTranslation();
  const showToast = useToast();
  const { recording, start, stop, cancel, discard } = useVoiceRecorder();
  // A touch hold: where it started, and whether it was released before the microphone opened.
  const hold = useRef<{ startX: number; released: boolean } | null>(null);
  const [holding, setHolding] = useState(false);

  const begin = async () => {
    const started = await start();
    if (!started) showToast(t('microphoneAccessDenied'), 'error', CHAT_TOAST_MS);
    return started;
  };

  const finishHold = async (send: boolean) => {
    hold.current = null;
    setHolding(false);
    if (!send) return cancel();
    const file = await stop(false);
    if (file) onSend(file);
  };

  const onPointerDown = async (event: PointerEvent<HTMLButtonElement>) => {
    if (event.pointerType !== 'touch' || disabled) return;
    event.preventDefault();
    hold.current = { startX: event.clientX, released: false };
    setHolding(true);
    const started = await begin();
    if (!started) {
      hold.current = null;
      setHolding(false);
    } else if (hold.current?.released) await finishHold(true);
  };

  useEffect(() => {
    if (!holding) return;
    const onMove = (event: globalThis.PointerEvent) => {
      if (hold.current && slideCancels(hold.current.startX, event.clientX)) void finishHold(false);
    };
    const onUp = () => {
      if (!hold.current) return;
      if (recording.phase === 'recording') void finishHold(true);
      else hold.current.released = true;
    };
    const onCancel = () => void (hold.current && finishHold(false));
    window.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onCancel);
    return () => {
      window.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onCancel);
    };
  });

  if (recording.phase === 'stopped') {
    return (
      <div className="voice-recorder" role="group" aria-label={t('voice.note')}>
        <audio src={recording.url} controls aria-label={t('voice.playback')} />
        <button type="button" className="link-button" onClick={discard}>
          {t('voice.delete')}
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => {
            onSend(recording.file);
            discard();
          }}
        >
          {t('voice.send')}
        </button>
      </div>
    );
  }

  const recordingNow = recording.phase === 'recording';
  // During a touch hold the button stays (the same element, keeping the touch) beside the timer.
  return (
    <>
      {recordingNow && (
        <div className="voice-recorder recording" role="group" aria-label={t('voice.note')}>
          <span className="voice-dot" aria-hidden="true" />
          <Elapsed since={recording.startedAt} />
          {holding ? (
            <span className="voice-hint">{t('voice.slideToCancel')}</span>
          ) : (
            <>
              <button type="button" className="link-button" onClick={cancel}>
                {t('voice.delete')}
              </button>
              <button type="button" className="primary" onClick={() => void stop(true)}>
                {t('voice.stop')}
              </button>
            </>
          )}
        </div>
      )}
      {(!recordingNow || holding) && (
        <button
          type="button"
          className="icon-button voice-button"
          aria-label={t('voice.record')}
          title={t('voice.record')}
          disabled={disabled}
          onPointerDown={(event) => void onPointerDown(event)}
          onClick={(event) => {
            // A touch hold starts on pointer down instead.
            if (hold.current || (event.nativeEvent as globalThis.PointerEvent).pointerType === 'touch') return;
            void begin();
          }}
        >
          <Icon name="mic" />
        </button>
      )}
    </>
  );
}
