import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../../lib/media/download-file';
import { getSample, parseRecipients, SAMPLE_FILE_NAME } from '../api/sender-api';
import { isRecipientFile, RECIPIENT_FILE_ACCEPT, recipientFileError } from '../recipient-file';
import type { SenderStatus } from '../sender-status';

/** The sample download button goes back to idle this long after a success. */
const SAMPLE_RESET_MS = 3000;

interface Props {
  disabled: boolean;
  /** Marks the file as the field a failed submit is about. */
  invalid?: boolean;
  onRecipients: (numbers: string[]) => void;
  onStatus: (status: SenderStatus) => void;
  onUploadProgress: (percent: number) => void;
}

type SampleState = 'idle' | 'downloading' | 'success';

/** Bulk mode: the recipient file (parsed by the server) and the sample file. */
export function RecipientUpload({ disabled, invalid, onRecipients, onStatus, onUploadProgress }: Props) {
  const { t } = useTranslation();
  const [sample, setSample] = useState<SampleState>('idle');

  useEffect(() => {
    if (sample !== 'success') return;
    const timer = window.setTimeout(() => setSample('idle'), SAMPLE_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [sample]);

  const pick = async (file: File | undefined) => {
    if (!file) return;
    onRecipients([]);
    if (!isRecipientFile(file.name)) {
      onStatus({ type: 'error', text: t('sender.unsupportedFileType') });
      return;
    }
    onStatus({ type: 'loading', text: t('sender.processing', { fileName: file.name }) });
    onUploadProgress(0);
    try {
      const parsed = await parseRecipients(file, (fraction) => onUploadProgress(Math.round(fraction * 100)));
      onRecipients(parsed.numbers);
      onStatus({ type: 'success', text: t('sender.numbersLoaded', { count: parsed.numbers.length, fileName: file.name }) });
    } catch (error) {
      onStatus({ type: 'error', text: recipientFileError(error, file.name, t) });
    }
  };

  const download = async () => {
    setSample('downloading');
    try {
      const url = URL.createObjectURL(await getSample());
      downloadFile(url, SAMPLE_FILE_NAME);
      window.setTimeout(() => URL.revokeObjectURL(url));
      setSample('success');
      onStatus({ type: 'success', text: t('sender.downloadStarted') });
    } catch {
      setSample('idle');
      onStatus({ type: 'error', text: t('sender.downloadFailed') });
    }
  };

  return (
    <div className="sender-upload">
      <label>
        {t('sender.recipientFile')}
        <input
          type="file"
          accept={RECIPIENT_FILE_ACCEPT}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          onChange={(event) => void pick(event.target.files?.[0])}
        />
      </label>
      <p className="note">{t('sender.fileHint')}</p>
      <button type="button" disabled={sample === 'downloading'} onClick={() => void download()}>
        {t(`sender.sample.${sample}`)}
      </button>
    </div>
  );
}
