import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelChip } from '../../../components/label-chip';
import { ApiError, messageOf } from '../../../lib/api/client';
import type { Label } from '../../../lib/api/types';
import { useLabels } from '../../../lib/labels/use-labels';
import { ConfirmDeleteModal } from '../../../components/confirm-delete-modal';
import { useToast } from '../../../lib/toast/toast-context';
import { createLabel, deleteLabel, updateLabel } from '../api/labels-api';
import '../labels.css';

/** The colour a new label starts with. */
const NEW_LABEL_COLOR = '#1d76db';
/** The longest name the server takes, in characters (code points). */
const NAME_MAX = 50;

/**
 * The typed name cut at `NAME_MAX` characters as the server counts them: an input's `maxLength`
 * counts UTF-16 units, so it would cut a name of emoji at half the length.
 */
function clipName(typed: string): string {
  const characters = [...typed];
  return characters.length > NAME_MAX ? characters.slice(0, NAME_MAX).join('') : typed;
}

/** The owner's labels: add one, and rename, recolour or delete each. */
export function LabelsSection() {
  const { t } = useTranslation();
  const showToast = useToast();
  const { labels, reload } = useLabels();
  const [name, setName] = useState('');
  const [color, setColor] = useState(NEW_LABEL_COLOR);
  const [saving, setSaving] = useState(false);
  /** Why the server refused the new label's name (taken, too long), shown under it until it changes. */
  const [nameProblem, setNameProblem] = useState('');
  /** The label whose deletion waits for the owner's confirmation. */
  const [deleting, setDeleting] = useState<Label | null>(null);
  const nameId = useId();

  /**
   * Runs a change; the list follows from the server (its event, and a reload). `onRefused` gets
   * the text of a refusal of what was typed (409, 422).
   */
  const run = async (change: () => Promise<unknown>, done: string, onRefused?: (text: string) => void): Promise<boolean> => {
    setSaving(true);
    try {
      await change();
      showToast(t(done), 'success');
      return true;
    } catch (error) {
      const text = messageOf(error, t('operationFailed'));
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) onRefused?.(text);
      showToast(text, 'error');
      return false;
    } finally {
      setSaving(false);
      reload();
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const refused = (text: string) => {
      setNameProblem(text);
      document.getElementById(nameId)?.focus();
    };
    if (await run(() => createLabel(name.trim(), color), 'labels.created', refused)) {
      setName('');
      setColor(NEW_LABEL_COLOR);
    }
  };

  return (
    <section className="panel-card" aria-labelledby="labels-heading">
      <h2 id="labels-heading">{t('labels.title')}</h2>
      <form className="form label-form" aria-label={t('labels.add')} onSubmit={(event) => void add(event)}>
        <label>
          {t('labels.name')}
          <input
            id={nameId}
            value={name}
            required
            aria-invalid={Boolean(nameProblem)}
            aria-describedby={nameProblem ? `${nameId}-error` : undefined}
            onChange={(event) => {
              setNameProblem('');
              setName(clipName(event.target.value));
            }}
          />
        </label>
        {nameProblem && (
          <span id={`${nameId}-error`} className="form-error">
            {nameProblem}
          </span>
        )}
        <label className="label-color-field">
          {t('labels.color')}
          <input type="color" value={color} onChange={(event) => setColor(event.target.value)} />
        </label>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={saving || !name.trim()}>
            {t('labels.add')}
          </button>
        </div>
      </form>
      {labels.length === 0 ? (
        <p className="muted">{t('labels.noneYet')}</p>
      ) : (
        <ul className="label-list" aria-label={t('labels.list')}>
          {labels.map((label) => (
            <LabelItem
              key={`${label.id}:${label.name}:${label.color}`}
              label={label}
              saving={saving}
              onSave={(change) => void run(() => updateLabel(label.id, change), 'labels.updated')}
              onDelete={() => setDeleting(label)}
            />
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDeleteModal
          title={t('labels.deleteTitle')}
          message={t('labels.deleteConfirm', { name: deleting.name })}
          deleteLabel={t('labels.delete')}
          deletingLabel={t('labels.deleting')}
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            await run(() => deleteLabel(deleting.id), 'labels.deleted');
            setDeleting(null);
          }}
        />
      )}
    </section>
  );
}

interface ItemProps {
  label: Label;
  saving: boolean;
  onSave: (change: Pick<Label, 'name' | 'color'>) => void;
  onDelete: () => void;
}

/** One label: its chip, its name and colour to edit, save and delete. */
function LabelItem({ label, saving, onSave, onDelete }: ItemProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(label.name);
  const [color, setColor] = useState(label.color.toLowerCase());
  const changed = name.trim() !== label.name || color !== label.color.toLowerCase();
  return (
    <li>
      <form
        className="label-item"
        aria-label={label.name}
        onSubmit={(event) => {
          event.preventDefault();
          onSave({ name: name.trim(), color });
        }}
      >
        <LabelChip label={{ ...label, name: name.trim() || label.name, color }} />
        <input aria-label={t('labels.nameOf', { name: label.name })} value={name} required onChange={(event) => setName(clipName(event.target.value))} />
        <input type="color" aria-label={t('labels.colorOf', { name: label.name })} value={color} onChange={(event) => setColor(event.target.value)} />
        <div className="label-item-actions">
          <button type="submit" disabled={saving || !changed || !name.trim()}>
            {t('save')}
          </button>
          <button type="button" className="danger" aria-label={t('labels.deleteOf', { name: label.name })} disabled={saving} onClick={onDelete}>
            {t('labels.delete')}
          </button>
        </div>
      </form>
    </li>
  );
}
