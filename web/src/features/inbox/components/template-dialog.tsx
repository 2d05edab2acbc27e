import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { TemplateInputs } from '../../../components/template-inputs';
import { TemplateSendPreview } from '../../../components/template-send-preview';
import { heldBy } from '../../../lib/api/assignment-conflict';
import { detailOf } from '../../../lib/api/client';
import type { Assignee, Template } from '../../../lib/api/types';
import {
  buildComponents,
  choicesComplete,
  emptyInputs,
  isApproved,
  templateLabel,
  templateShape,
  type SenderInputs,
} from '../../../lib/templates/send-components';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { getTemplates, sendTemplate } from '../api/inbox-api';

interface Props {
  phone: string;
  phoneNumberId: string | null;
  onClose: () => void;
}

/**
 * Sends an approved template into the conversation: pick one, give what it asks for (variables,
 * a header file or location, button values) and check the preview. The same inputs and
 * `components` as the template sender.
 */
export function TemplateDialog({ phone, phoneNumberId, onClose }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [chosenId, setChosenId] = useState('');
  const [inputs, setInputs] = useState<SenderInputs>(emptyInputs);
  const [sending, setSending] = useState(false);
  /** A teammate holds the conversation: the next send takes it over. */
  const [holder, setHolder] = useState<Assignee | null>(null);

  useEffect(() => {
    let live = true;
    getTemplates()
      .then((all) => live && setTemplates(all.filter(isApproved)))
      .catch((error: unknown) => {
        if (!live) return;
        setTemplates([]);
        showToast(detailOf(error, t('template.loadFailed')), 'error', CHAT_TOAST_MS);
      });
    return () => {
      live = false;
    };
  }, [showToast, t]);

  const chosen = templates?.find((template) => template.id === chosenId) ?? null;
  const shape = useMemo(() => (chosen ? templateShape(chosen) : null), [chosen]);
  // Send waits for a header file, a location or a product section; an empty variable goes as a single space.
  const ready = shape !== null && choicesComplete(shape, inputs);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || !shape || !ready || !phoneNumberId) return;
    setSending(true);
    try {
      const components = buildComponents(shape, inputs);
      await sendTemplate({ phone, phoneNumberId, template: chosen, components, mediaFile: inputs.mediaFile }, holder !== null);
      showToast(t('template.sent'), 'success', CHAT_TOAST_MS);
      onClose();
    } catch (error) {
      const refusedBy = heldBy(error);
      if (refusedBy) setHolder(refusedBy);
      else showToast(detailOf(error, t('template.sendFailed')), 'error', CHAT_TOAST_MS);
      setSending(false);
    }
  };

  return (
    <Modal title={t('template.title')} onClose={onClose}>
      <form className="form" onSubmit={(event) => void submit(event)}>
        {templates === null ? (
          <p role="status">{t('loading')}</p>
        ) : templates.length === 0 ? (
          <p>{t('template.none')}</p>
        ) : (
          <label>
            {t('template.choose')}
            <select
              value={chosenId}
              onChange={(event) => {
                setChosenId(event.target.value);
                setInputs(emptyInputs());
              }}
            >
              <option value="">—</option>
              {templates.map((template) => (
                <option key={template.id} value={template.id} dir="auto">
                  {templateLabel(template)}
                </option>
              ))}
            </select>
          </label>
        )}
        {shape && <TemplateInputs key={chosenId} shape={shape} inputs={inputs} onChange={setInputs} />}
        {shape && <TemplateSendPreview shape={shape} inputs={inputs} />}
        {holder && (
          <p className="take-over-ask" role="alert">
            {t('team.takeOverAsk', { name: holder.name })}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="primary" disabled={!ready || sending}>
            {t(holder ? 'team.takeOverConfirm' : 'chat.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
