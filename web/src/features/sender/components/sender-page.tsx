import { useCallback, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFocusFirstInvalid } from '../../../components/use-focus-first-invalid';
import { detailOf, detailsOf } from '../../../lib/api/client';
import type { BulkSendProgressEvent } from '../../../lib/realtime/events';
import { sendTemplate, type BulkAccepted, type BulkRecipient, type TemplateSend } from '../api/sender-api';
import { useBulkJob } from '../hooks/use-bulk-job';
import { useSenderSetup } from '../hooks/use-sender-setup';
import { FALLBACK_REGION, fullNumber } from '../phone-number';
import {
  buildComponents,
  emptyInputs,
  templateLabel,
  templateShape,
  variableColumns,
  type SenderInputs,
} from '../../../lib/templates/send-components';
import type { SenderStatus } from '../sender-status';
import { submitProblem, type SendMode, type SubmitProblem } from '../submit-check';
import { PhoneInput } from './phone-input';
import { RecipientUpload } from './recipient-upload';
import { TemplateSendPreview } from '../../../components/template-send-preview';
import { TemplateInputs } from '../../../components/template-inputs';
import '../sender.css';

/** /sender: an approved template to one number, or to every number of a recipient file. */
export function SenderPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<SenderStatus | null>(null);
  const { loading, phoneNumberId, defaultRegion, templates } = useSenderSetup(setStatus);
  const [mode, setMode] = useState<SendMode>('single');
  const [templateId, setTemplateId] = useState('');
  const [inputs, setInputs] = useState<SenderInputs>(emptyInputs);
  const [chosenRegion, setRegion] = useState<string | null>(null);
  const region = chosenRegion ?? defaultRegion ?? FALLBACK_REGION;
  const [number, setNumber] = useState('');
  const [recipients, setRecipients] = useState<BulkRecipient[]>([]);
  const [uploadPercent, setUploadPercent] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  // The spec's submit checks, then the number read as the chosen country's.
  const [problem, setProblem] = useState<SubmitProblem | 'invalidNumber' | null>(null);
  const { ref: formRef, focusInvalid } = useFocusFirstInvalid();

  const onProgress = useCallback(
    (progress: BulkSendProgressEvent) => {
      if (!progress.finished) {
        setStatus({ type: 'loading', text: t('sender.sendingProgress', { done: progress.done, total: progress.total }) });
        return;
      }
      const text = t('sender.bulkComplete', { success: progress.success, errors: progress.errors });
      setStatus({ type: progress.errors > 0 ? 'error' : 'success', text });
    },
    [t],
  );
  const job = useBulkJob(onProgress);

  const template = templates.find((candidate) => candidate.id === templateId) ?? null;
  const shape = useMemo(() => (template ? templateShape(template) : null), [template]);
  const components = useMemo(() => (shape ? buildComponents(shape, inputs) : []), [shape, inputs]);
  const columns = useMemo(() => (shape ? variableColumns(shape) : []), [shape]);
  const busy = loading || sending || job.running;

  const chooseTemplate = (id: string) => {
    setTemplateId(id);
    setInputs(emptyInputs());
    setStatus(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = submitProblem({ phoneNumberId, shape, mode, number, recipients, components });
    setProblem(found);
    if (found || !template || !phoneNumberId) {
      setStatus({ type: 'error', text: t(`sender.${found ?? 'noTemplate'}`) });
      focusInvalid();
      return;
    }
    const to = fullNumber(region, number);
    if (mode === 'single' && !to) {
      setProblem('invalidNumber');
      setStatus({ type: 'error', text: t('sender.invalidNumber', { number: number.trim() }) });
      focusInvalid();
      return;
    }
    setSending(true);
    setStatus({ type: 'loading', text: t('sender.preparing') });
    const common = { template, phoneNumberId, components, mediaFile: inputs.mediaFile };
    const send: TemplateSend =
      mode === 'single' ? { ...common, mode, to: to ?? '' } : { ...common, mode, recipients };
    // Preparing while the request body uploads, sending once the server has it all.
    const uploaded = (fraction: number) => {
      setUploadPercent(Math.round(fraction * 100));
      if (fraction >= 1) setStatus({ type: 'loading', text: t('sender.sending') });
    };
    setUploadPercent(0);
    try {
      const answer = await sendTemplate(send, uploaded);
      // 202 `queued`: stored, the provider has not taken it yet; the outbox retries it.
      const queued = (answer as { status?: string } | null)?.status === 'queued';
      if (send.mode === 'single') setStatus({ type: 'success', text: t(queued ? 'sender.queued' : 'sender.sent') });
      else job.follow((answer as BulkAccepted).job_id);
    } catch (error) {
      const details = detailsOf(error);
      const failed = t('sender.sendFailed', { message: detailOf(error, t('sender.unknownError')) });
      setStatus({ type: 'error', text: details ? failed + t('sender.sendFailedDetails', { details }) : failed });
    } finally {
      setSending(false);
    }
  };

  return (
    <main className="sender-page">
      <header className="page-header">
        <Link to="/whatsapp"><span className="icon-mirror" aria-hidden="true">←</span> {t('sender.back')}</Link>
        <h1>{t('sender.title')}</h1>
        <p className="muted">{t('sender.subtitle')}</p>
      </header>
      {loading ? (
        <div className="sender-loading" role="status">
          <span className="sender-spinner" aria-hidden="true" />
          {t('sender.loadingConfiguration')}
          {status && <span className="muted">{status.text}</span>}
        </div>
      ) : (
        <div className="sender-layout">
          <form ref={formRef} className="form sender-form" aria-label={t('sender.title')} onSubmit={(event) => void submit(event)}>
            <fieldset className="sender-mode">
              <legend>{t('sender.mode')}</legend>
              {(['single', 'bulk'] as const).map((choice) => (
                <label key={choice} className="checkbox">
                  <input type="radio" name="send_mode" checked={mode === choice} onChange={() => setMode(choice)} />
                  {t(`sender.modes.${choice}`)}
                </label>
              ))}
            </fieldset>
            <label>
              {t('sender.template')}
              <select value={templateId} aria-invalid={problem === 'noTemplate' || undefined} onChange={(event) => chooseTemplate(event.target.value)}>
                <option value="">{t('sender.selectTemplate')}</option>
                {templates.map((candidate) => (
                  <option key={candidate.id} value={candidate.id} dir="auto">
                    {templateLabel(candidate)}
                  </option>
                ))}
              </select>
            </label>
            {mode === 'single' ? (
              <PhoneInput region={region} number={number} invalid={problem === 'noNumber' || problem === 'invalidNumber'} onRegion={setRegion} onNumber={setNumber} />
            ) : (
              <RecipientUpload
                disabled={busy}
                invalid={problem === 'noRecipients'}
                columns={columns}
                onRecipients={setRecipients}
                onStatus={setStatus}
                onUploadProgress={setUploadPercent}
              />
            )}
            {shape && <TemplateInputs key={templateId} shape={shape} inputs={inputs} markEmpty={problem === 'requiresVariables'} onChange={setInputs} />}
            <button type="submit" className="primary" disabled={busy || !template}>
              {t('sender.send')}
            </button>
            {mode === 'bulk' && uploadPercent !== null && (
              <p className="note">{t('sender.uploadProgress', { percent: uploadPercent })}</p>
            )}
            {status && (
              <p role={status.type === 'error' ? 'alert' : 'status'} className={`sender-status sender-status-${status.type}`}>
                {status.text}
              </p>
            )}
          </form>
          <TemplateSendPreview shape={shape} inputs={inputs} />
        </div>
      )}
    </main>
  );
}
