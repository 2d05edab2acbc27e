import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReplyButton } from '../api/replies-api';
import { hasMedia, NO_MEDIA } from '../../../lib/media/media-draft';
import { addButton, BUTTON_TITLE_MAX, MAX_BUTTONS, removeButton, triggerKey, type StepDraft } from '../reply-draft';
import { MediaField } from '../../../components/media-field';

/** The flow steps of the reply being edited, shared by every level of buttons. */
export interface Flow {
  steps: Record<string, StepDraft>;
  setStep: (id: string, step: StepDraft | null) => void;
  /** Lower-cased triggers of the other replies. */
  others: Set<string>;
  /** The other replies' triggers as typed, for the link picker. */
  triggers: string[];
}

/**
 * Up to 3 quick-reply buttons. Each can be linked to another reply's trigger, or (when its id is
 * not one) open a flow step of its own, edited in place.
 */
export function ButtonsEditor({
  buttons,
  onChange,
  flow,
  stepId,
}: {
  buttons: ReplyButton[];
  onChange: (buttons: ReplyButton[]) => void;
  flow: Flow;
  /** The step these buttons belong to; none for the reply's own buttons. */
  stepId?: string;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string, show: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (show) next.add(id);
      else next.delete(id);
      return next;
    });
  const update = (index: number, change: Partial<ReplyButton>) => onChange(buttons.map((b, i) => (i === index ? { ...b, ...change } : b)));

  return (
    <fieldset className="buttons-editor">
      <legend>{stepId === undefined ? t('replies.buttons') : t('replies.stepButtons', { id: stepId })}</legend>
      <p className="muted">{t('replies.buttonsHint', { max: MAX_BUTTONS })}</p>
      {buttons.map((button, index) => {
        const n = index + 1;
        const id = button.id.trim();
        const linked = id !== '' && flow.others.has(triggerKey(id));
        const step = flow.steps[id];
        const name = stepId === undefined ? t('replies.buttonN', { n }) : t('replies.stepButtonN', { id: stepId, n });
        return (
          <div key={index} className="button-block">
            <fieldset className="button-row">
              <legend>{name}</legend>
              <label>
                {t('replies.buttonTitle')}
                <input value={button.title} maxLength={BUTTON_TITLE_MAX} onChange={(e) => update(index, { title: e.target.value })} />
              </label>
              <label>
                {t('replies.buttonId')}
                <input value={button.id} onChange={(e) => update(index, { id: e.target.value })} />
              </label>
              <label>
                {t('replies.linkTo')}
                <select
                  value={linked ? (flow.triggers.find((trigger) => triggerKey(trigger) === triggerKey(id)) ?? '') : ''}
                  onChange={(e) => {
                    const trigger = e.target.value;
                    update(index, trigger ? { id: trigger, title: button.title || trigger.slice(0, BUTTON_TITLE_MAX) } : { id: '' });
                  }}
                >
                  <option value="">{t('replies.notLinked')}</option>
                  {flow.triggers.map((trigger) => (
                    <option key={trigger} value={trigger}>
                      {trigger}
                    </option>
                  ))}
                </select>
              </label>
              <div className="row-actions">
                {id !== '' && !linked && !step && (
                  <button
                    type="button"
                    onClick={() => {
                      flow.setStep(id, { text: '', buttons: [{ id: '', title: '' }], media: NO_MEDIA });
                      toggle(id, true);
                    }}
                  >
                    {t('replies.addStep')}
                  </button>
                )}
                {id !== '' && !linked && step && (
                  <button type="button" aria-expanded={open.has(id)} onClick={() => toggle(id, !open.has(id))}>
                    {t(open.has(id) ? 'replies.hideStep' : 'replies.showStep')}
                  </button>
                )}
                <button type="button" className="text-button" onClick={() => onChange(removeButton(buttons, index))}>
                  {t('replies.removeButton', { name })}
                </button>
              </div>
              {linked && <p className="muted">{t('replies.linkedHint', { trigger: id })}</p>}
            </fieldset>
            {!linked && step && open.has(id) && (
              <StepEditor
                id={id}
                step={step}
                flow={flow}
                onRemove={() => {
                  flow.setStep(id, null);
                  toggle(id, false);
                }}
              />
            )}
          </div>
        );
      })}
      <button type="button" disabled={buttons.length >= MAX_BUTTONS} onClick={() => onChange(addButton(buttons))}>
        {t('replies.addButton')}
      </button>
    </fieldset>
  );
}

/** What a press of the button `id` answers: text or media with a caption, and its own buttons. */
function StepEditor({ id, step, flow, onRemove }: { id: string; step: StepDraft; flow: Flow; onRemove: () => void }) {
  const { t } = useTranslation();
  const change = (part: Partial<StepDraft>) => flow.setStep(id, { ...step, ...part });
  return (
    <section className="step-editor" aria-label={t('replies.stepTitle', { id })}>
      <h4>{t('replies.stepTitle', { id })}</h4>
      <MediaField media={step.media} onChange={(media) => change({ media })} />
      <label>
        {t(hasMedia(step.media) ? 'replies.caption' : 'replies.responseText')}
        <textarea rows={2} value={step.text} onChange={(e) => change({ text: e.target.value })} />
      </label>
      <ButtonsEditor buttons={step.buttons} onChange={(buttons) => change({ buttons })} flow={flow} stepId={id} />
      <button type="button" className="text-button" onClick={onRemove}>
        {t('replies.removeStep')}
      </button>
    </section>
  );
}
