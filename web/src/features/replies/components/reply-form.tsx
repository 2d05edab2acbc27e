import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasMedia } from '../../../lib/media/media-draft';
import { validateDraft, type DraftError, type ReplyDraft, type ReplyTab } from '../reply-draft';
import { ButtonsEditor, type Flow } from './buttons-editor';
import { ListEditor } from './list-editor';
import { MATCH_MODES, type MatchMode } from '../api/replies-api';
import { MediaField } from '../../../components/media-field';
import { useFocusFirstInvalid } from '../../../components/use-focus-first-invalid';

const TABS: ReplyTab[] = ['standard', 'list'];

/** The field each rule with a field of its own is about; the other rules' messages show above the buttons. */
const FIELD_OF: Partial<Record<string, string>> = { triggerRequired: 'trigger', cooldownInvalid: 'cooldown', responseRequired: 'text' };

/**
 * The inline create/edit form: a standard tab (text or media, quick-reply buttons, flow steps)
 * and a list tab. The first broken rule shows under its field, or under the form when it has
 * none; `onSave` reports server errors.
 */
export function ReplyForm({
  initial,
  editing,
  others,
  triggers,
  suggestions,
  onSave,
  onCancel,
}: {
  initial: ReplyDraft;
  editing: boolean;
  others: Set<string>;
  triggers: string[];
  suggestions: string[];
  onSave: (draft: ReplyDraft) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const suggestionsId = useId();
  const matchHintId = useId();
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<DraftError | null>(null);
  const { ref: formRef, focusInvalid } = useFocusFirstInvalid();
  const errorId = useId();
  const invalid = (...keys: string[]) => (problem && keys.includes(problem.key) ? true : undefined);
  /** The broken rule's message, under the field it is about (`field`), else above the buttons. */
  const errorAt = (field: string | null) =>
    problem && (FIELD_OF[problem.key] ?? null) === field ? (
      <p role="alert" className="form-error" id={errorId}>
        {t(`replies.errors.${problem.key}`, problem.values)}
      </p>
    ) : null;
  const describedBy = (...keys: string[]) => (invalid(...keys) ? errorId : undefined);
  const change = (part: Partial<ReplyDraft>) => setDraft((current) => ({ ...current, ...part }));
  const flow: Flow = {
    steps: draft.steps,
    setStep: (id, step) =>
      setDraft((current) => {
        const steps = { ...current.steps };
        if (step) steps[id] = step;
        else delete steps[id];
        return { ...current, steps };
      }),
    others,
    triggers,
  };
  const title = t(editing ? 'replies.editReply' : 'replies.newReply');
  // The form opens under the card whose Edit was pressed, below the fold on a phone: the trigger
  // takes the focus, which brings the form on screen.
  const triggerRef = useRef<HTMLInputElement>(null);
  useEffect(() => triggerRef.current?.focus(), []);

  return (
    <form
      ref={formRef}
      className="reply-form panel-card form"
      aria-label={title}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const found = validateDraft(draft, others);
        setProblem(found);
        if (found) {
          focusInvalid();
          return;
        }
        setSaving(true);
        void onSave(draft).finally(() => setSaving(false));
      }}
    >
      <h2>{title}</h2>
      <div role="tablist" aria-label={t('replies.tabs')} className="tabs">
        {TABS.map((tab) => (
          <button key={tab} type="button" role="tab" aria-selected={draft.tab === tab} onClick={() => change({ tab })}>
            {t(tab === 'standard' ? 'replies.tabStandard' : 'replies.tabList')}
          </button>
        ))}
      </div>
      <label>
        {t('replies.trigger')}
        <input ref={triggerRef} value={draft.trigger} aria-invalid={invalid('triggerRequired')} aria-describedby={describedBy('triggerRequired')} list={suggestionsId} maxLength={256} onChange={(e) => change({ trigger: e.target.value })} />
      </label>
      {errorAt('trigger')}
      <datalist id={suggestionsId}>
        {suggestions.map((text) => (
          <option key={text} value={text}>
            {text}
          </option>
        ))}
      </datalist>
      <p className="muted">{t('replies.triggerHint')}</p>
      <label>
        {t('matchMode.label')}
        <select value={draft.matchMode} aria-label={t('matchMode.label')} aria-describedby={matchHintId} onChange={(e) => change({ matchMode: e.target.value as MatchMode })}>
          {MATCH_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`matchMode.${mode}`)}
            </option>
          ))}
        </select>
      </label>
      <p className="muted" id={matchHintId}>
        {t('matchMode.hint')}
      </p>
      <label>
        {t('replies.cooldown')}
        <input type="number" aria-invalid={invalid('cooldownInvalid')} aria-describedby={describedBy('cooldownInvalid')} min={0} step="any" inputMode="decimal" value={draft.cooldownHours} onChange={(e) => change({ cooldownHours: e.target.value })} />
      </label>
      {errorAt('cooldown')}
      <label className="checkbox">
        <input type="checkbox" checked={draft.isActive} onChange={(e) => change({ isActive: e.target.checked })} />
        {t('replies.isActive')}
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={draft.isDefault} onChange={(e) => change({ isDefault: e.target.checked })} />
        {t('replies.isDefault')}
      </label>
      {draft.tab === 'standard' ? (
        <>
          <MediaField media={draft.media} onChange={(media) => change({ media })} />
          <label>
            {t(hasMedia(draft.media) ? 'replies.caption' : 'replies.responseText')}
            <textarea rows={3} value={draft.text} aria-invalid={invalid('responseRequired')} aria-describedby={describedBy('responseRequired')} onChange={(e) => change({ text: e.target.value })} />
          </label>
          {errorAt('text')}
          <ButtonsEditor buttons={draft.buttons} onChange={(buttons) => change({ buttons })} flow={flow} />
        </>
      ) : (
        <ListEditor list={draft.list} onChange={(list) => change({ list })} />
      )}
      {errorAt(null)}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {t(saving ? 'replies.saving' : 'replies.save')}
        </button>
        <button type="button" onClick={onCancel} disabled={saving}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
