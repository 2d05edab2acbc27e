import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileInput } from '../../../components/file-input';
import { downloadFile } from '../../../lib/media/download-file';
import { getSample, parseRecipients, SAMPLE_FILE_NAME, type BulkRecipient, type ParsedRecipients } from '../api/sender-api';
import { isRecipientFile, RECIPIENT_FILE_ACCEPT, recipientFileError } from '../recipient-file';
import type { SenderStatus } from '../sender-status';
import { SkippedSummary } from './skipped-summary';

/** The sample download button goes back to idle this long after a success. */
const SAMPLE_RESET_MS = 3000;

interface Props {
  disabled: boolean;
  /** Marks the file as the field a failed submit is about. */
  invalid?: boolean;
  /** The chosen template's variable columns (none without a template). */
  columns: string[];
  onRecipients: (recipients: BulkRecipient[]) => void;
  onStatus: (status: SenderStatus) => void;
  onUploadProgress: (percent: number) => void;
}

type SampleState = 'idle' | 'downloading' | 'success';

/** Each number of a parsed file with its own variable values, if its row gave any. */
export function bulkRecipients(parsed: ParsedRecipients): BulkRecipient[] {
  return parsed.numbers.map((number) => {
    const variables = parsed.variables[number];
    return variables ? { phone_number: number, variables } : { phone_number: number };
  });
}

/** Bulk mode: the recipient file (parsed by the server, again when the template changes) and the sample file. */
export function RecipientUpload({ disabled, invalid, columns, onRecipients, onStatus, onUploadProgress }: Props) {
  const { t } = useTranslation();
  const [sample, setSample] = useState<SampleState>('idle');
  const [file, setFile] = useState<File | null>(null);
  const [parsed, setParsed] = useState<ParsedRecipients | null>(null);
  const columnList = columns.join(',');

  useEffect(() => {
    if (sample !== 'success') return;
    const timer = window.setTimeout(() => setSample('idle'), SAMPLE_RESET_MS);
    return () => window.clearTimeout(timer);
  }, [sample]);

  useEffect(() => {
    if (!file) return;
    let live = true;
    const read = async () => {
      onRecipients([]);
      setParsed(null);
      onStatus({ type: 'loading', text: t('sender.processing', { fileName: file.name }) });
      onUploadProgress(0);
      try {
        const columns = columnList ? columnList.split(',') : [];
        const answer = await parseRecipients(file, columns, (fraction) => onUploadProgress(Math.round(fraction * 100)));
        if (!live) return;
        setParsed(answer);
        onRecipients(bulkRecipients(answer));
        onStatus({ type: 'success', text: t('sender.numbersLoaded', { count: answer.numbers.length, fileName: file.name }) });
      } catch (error) {
        if (live) onStatus({ type: 'error', text: recipientFileError(error, file.name, t) });
      }
    };
    void read();
    return () => {
      live = false;
    };
  }, [file, columnList, onRecipients, onStatus, onUploadProgress, t]);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    if (!isRecipientFile(picked.name)) {
      setFile(null);
      setParsed(null);
      onRecipients([]);
      onStatus({ type: 'error', text: t('sender.unsupportedFileType') });
      return;
    }
    setFile(picked);
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
      <FileInput
        label={t('sender.recipientFile')}
        fileName={file?.name ?? null}
        accept={RECIPIENT_FILE_ACCEPT}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        onChange={(event) => pick(event.target.files?.[0])}
      />
      <p className="note">{t('sender.fileHint')}</p>
      {columns.length > 0 && <p className="note">{t('sender.variablesHint', { columns: columns.join(', ') })}</p>}
      {parsed && file && <SkippedSummary skipped={parsed.skipped} fileName={file.name} />}
      <button type="button" disabled={sample === 'downloading'} onClick={() => void download()}>
        {t(`sender.sample.${sample}`)}
      </button>
    </div>
  );
}
