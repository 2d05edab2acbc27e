import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { heldBy } from '../../../lib/api/assignment-conflict';
import { detailOf } from '../../../lib/api/client';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { getTemplates, sendTemplate } from '../api/inbox-api';
import type { Assignee, Template } from '../../../lib/api/types';
import { bodyParameters, componentText, fillPlaceholders, placeholders } from '../template-text';

interface Props {
  phone: string;
  phoneNumberId: string | null;
  onClose: () => void;
}

/** Sends an approved template: pick one, fill its body variables, check the preview. */
export function TemplateDialog({ phone, phoneNumberId, onClose }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [chosenId, setChosenId] = useState('');
  const [values, setValues] = useState<Record<number, string>>({});
  const [sending, setSending] = useState(false);
  /** A teammate holds the conversation: the next send takes it over. */
  const [holder, setHolder] = useState<Assignee | null>(null);

  useEffect(() => {
    let live = true;
    getTemplates()
      .then((all) => live && setTemplates(all.filter((template) => template.status === 'APPROVED')))
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
  const body = chosen ? componentText(chosen, 'BODY') : '';
  const numbers = placeholders(body);
  const complete = chosen !== null && numbers.every((n) => values[n]?.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen || !complete || !phoneNumberId) return;
    setSending(true);
    try {
      await sendTemplate({ phone, phoneNumberId, template: chosen, components: bodyParameters(chosen, values) }, holder !== null);
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
                setValues({});
              }}
            >
              <option value="">—</option>
              {templates.map((template) => (
                <option key={template.id} value={template.id}>
                  {template.name} ({template.language})
                </option>
              ))}
            </select>
          </label>
        )}
        {numbers.map((n) => (
          <label key={n}>
            {t('template.variable', { n })}
            <input value={values[n] ?? ''} onChange={(event) => setValues({ ...values, [n]: event.target.value })} />
          </label>
        ))}
        {chosen && (
          <section className="template-preview" aria-label={t('template.preview')}>
            {componentText(chosen, 'HEADER') && <strong>{componentText(chosen, 'HEADER')}</strong>}
            <p className="message-text">{fillPlaceholders(body, values)}</p>
            {componentText(chosen, 'FOOTER') && <small>{componentText(chosen, 'FOOTER')}</small>}
          </section>
        )}
        {holder && (
          <p className="take-over-ask" role="alert">
            {t('team.takeOverAsk', { name: holder.name })}
          </p>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="primary" disabled={!complete || sending}>
            {t(holder ? 'team.takeOverConfirm' : 'chat.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
