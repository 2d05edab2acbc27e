import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  createCannedReply,
  deleteCannedReply,
  getCannedReplies,
  updateCannedReply,
  type CannedMedia,
  type CannedReply,
  type CannedReplyFields,
} from '../../../lib/api/canned-replies';
import { getStoredRole } from '../../../lib/api/session-store';
import { mediaTypeOf } from '../../../lib/media/media-draft';
import { CannedForm } from './canned-form';
import { ConfirmDeleteModal } from '../../../components/confirm-delete-modal';
import '../canned.css';

const VARIABLES = [
  ['{{name}}', 'canned.variableName'],
  ['{{phone}}', 'canned.variablePhone'],
  ['{{agent}}', 'canned.variableAgent'],
] as const;

/** The open form: a new reply (id null) or the one being edited. */
interface OpenForm {
  id: string | null;
  initial: CannedReplyFields;
  stored: CannedMedia | null;
}

/** /canned-replies: every member sees the list; the owner adds, edits and deletes. */
export function CannedRepliesPage() {
  const { t } = useTranslation();
  const owner = getStoredRole() === 'admin';
  const [replies, setReplies] = useState<CannedReply[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<OpenForm | null>(null);
  const [deleting, setDeleting] = useState<CannedReply | null>(null);

  const load = useCallback(
    () =>
      getCannedReplies()
        .then(setReplies)
        .catch(() => {
          setReplies((current) => current ?? []);
          setError(t('canned.loadFailed'));
        }),
    [t],
  );
  useEffect(() => void load(), [load]);

  const save = async (fields: CannedReplyFields) => {
    await (form?.id ? updateCannedReply(form.id, fields) : createCannedReply(fields));
    setForm(null);
    await load();
  };

  const remove = async (reply: CannedReply) => {
    try {
      await deleteCannedReply(reply.id);
      if (form?.id === reply.id) setForm(null);
    } catch {
      setError(t('canned.deleteFailed'));
    }
    setDeleting(null);
    await load();
  };

  const formFor = (id: string | null) =>
    form && form.id === id ? (
      <CannedForm key={id ?? 'new'} initial={form.initial} stored={form.stored} editing={id !== null} onSave={save} onCancel={() => setForm(null)} />
    ) : null;

  return (
    <main className="canned-page">
      <header className="page-header">
        <Link to="/whatsapp">
          <span className="icon-mirror" aria-hidden="true">←</span> {t('canned.back')}
        </Link>
        <div className="canned-title">
          <div>
            <h1>{t('canned.title')}</h1>
            <p className="muted">{t('canned.description')}</p>
          </div>
          {owner && (
            <button type="button" className="primary" onClick={() => setForm(form?.id === null ? null : { id: null, initial: { shortcut: '', text: '' }, stored: null })}>
              {t('canned.addNew')}
            </button>
          )}
        </div>
        <p className="muted">{t('canned.variablesHint')}</p>
        <ul className="canned-variables">
          {VARIABLES.map(([variable, label]) => (
            <li key={variable}>
              <code dir="ltr">{variable}</code> {t(label)}
            </li>
          ))}
        </ul>
        {!owner && <p className="muted">{t('canned.ownerOnly')}</p>}
      </header>
      {error && (
        <div role="alert" className="error-banner">
          <button type="button" title={t('canned.dismiss')} onClick={() => setError(null)}>
            {error}
            <span aria-hidden="true"> ✕</span>
          </button>
        </div>
      )}
      {formFor(null)}
      {replies === null ? (
        <p role="status">{t('canned.loading')}</p>
      ) : replies.length === 0 ? (
        <p className="canned-empty">{t('canned.empty')}</p>
      ) : (
        <ul className="canned-list" aria-label={t('canned.title')}>
          {replies.map((reply) => (
            <li key={reply.id} className="canned-entry">
              <article className="panel-card canned-card">
                <h3 dir="ltr">/{reply.shortcut}</h3>
                <p className="canned-text" dir="auto">
                  {reply.text}
                </p>
                {reply.media && (
                  <p className="muted canned-media" dir="auto">
                    {t('canned.mediaAttached', { kind: t(`media.${mediaTypeOf({ type: reply.media.mime_type, name: reply.media.filename }) ?? 'document'}`), name: reply.media.filename })}
                  </p>
                )}
                {owner && (
                  <div className="form-actions">
                    <button
                      type="button"
                      aria-label={t('canned.editLabel', { shortcut: reply.shortcut })}
                      onClick={() => setForm(form?.id === reply.id ? null : { id: reply.id, initial: { shortcut: reply.shortcut, text: reply.text }, stored: reply.media })}
                    >
                      {t('canned.edit')}
                    </button>
                    <button type="button" className="danger" aria-label={t('canned.deleteLabel', { shortcut: reply.shortcut })} onClick={() => setDeleting(reply)}>
                      {t('canned.delete')}
                    </button>
                  </div>
                )}
              </article>
              {formFor(reply.id)}
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <ConfirmDeleteModal
          title={t('canned.deleteTitle')}
          message={t('canned.deleteConfirm', { shortcut: deleting.shortcut })}
          deleteLabel={t('canned.delete')}
          deletingLabel={t('canned.deleting')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </main>
  );
}
