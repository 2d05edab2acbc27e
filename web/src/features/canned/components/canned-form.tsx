import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MediaField } from '../../../components/media-field';
import { ApiError, detailOf } from '../../../lib/api/client';
import { cannedMediaUrl, type CannedMedia, type CannedReplyFields } from '../../../lib/api/canned-replies';
import { mediaTypeOf, NO_MEDIA, type MediaDraft } from '../../../lib/media/media-draft';
import { checkCanned, type CannedProblems } from '../canned-rules';

interface Props {
  initial: CannedReplyFields;
  /** The file the reply carries now, if any. */
  stored: CannedMedia | null;
  editing: boolean;
  onSave: (fields: CannedReplyFields) => Promise<void>;
  onCancel: () => void;
}

/** Create or edit one canned reply; each broken rule shows under its field. */
export function CannedForm({ initial, stored, editing, onSave, onCancel }: Props) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(initial);
  const [media, setMedia] = useState<MediaDraft>(() =>
    stored
      ? { ...NO_MEDIA, url: cannedMediaUrl(stored), type: mediaTypeOf({ type: stored.mime_type, name: stored.filename }) }
      : NO_MEDIA,
  );
  const [problems, setProblems] = useState<CannedProblems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const ids = { shortcut: useId(), text: useId(), hint: useId() };
  // The form opens under the card whose Edit was pressed, below the fold on a phone: its first
  // field takes the focus, which brings it on screen and lets typing start at once.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkCanned(fields);
    setProblems(found);
    setFailure(null);
    if (found.shortcut || found.text) return;
    setSaving(true);
    try {
      await onSave({
        shortcut: fields.shortcut.trim(),
        text: fields.text,
        file: media.file,
        removeMedia: media.removeMedia && !media.file,
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'shortcut_taken') setProblems({ shortcut: 'canned.errors.shortcutTaken' });
      else setFailure(detailOf(error, t('canned.saveFailed')));
      setSaving(false);
    }
  };

  const problem = (field: keyof CannedProblems) =>
    problems[field] ? (
      <span id={`${ids[field]}-error`} className="form-error" role="alert">
        {t(problems[field])}
      </span>
    ) : null;

  return (
    <form className="panel-card canned-form" onSubmit={(event) => void submit(event)} noValidate>
      <h2>{t(editing ? 'canned.editTitle' : 'canned.newTitle')}</h2>
      <label htmlFor={ids.shortcut}>{t('canned.shortcut')}</label>
      <input
        id={ids.shortcut}
        ref={first}
        dir="ltr"
        value={fields.shortcut}
        aria-invalid={Boolean(problems.shortcut)}
        aria-describedby={problems.shortcut ? `${ids.shortcut}-error` : ids.hint}
        onChange={(event) => setFields({ ...fields, shortcut: event.target.value })}
      />
      <span id={ids.hint} className="muted">
        {t('canned.shortcutHint')}
      </span>
      {problem('shortcut')}
      <label htmlFor={ids.text}>{t('canned.text')}</label>
      <textarea
        id={ids.text}
        rows={4}
        dir="auto"
        value={fields.text}
        aria-invalid={Boolean(problems.text)}
        aria-describedby={problems.text ? `${ids.text}-error` : undefined}
        onChange={(event) => setFields({ ...fields, text: event.target.value })}
      />
      {problem('text')}
      <span className="muted">{t('canned.mediaHint')}</span>
      <MediaField media={media} onChange={setMedia} />
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {t(saving ? 'canned.saving' : 'canned.save')}
        </button>
        <button type="button" onClick={onCancel} disabled={saving}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
