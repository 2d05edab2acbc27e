import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { detailOf } from '../../../lib/api/client';
import { createReply, deleteReply, getFlowSteps, getReplies, getTemplates, updateReply, type AutomatedReply } from '../api/replies-api';
import { buildReplyForm, draftFromReply, emptyDraft, otherTriggers, triggerSuggestions, type ReplyDraft } from '../reply-draft';
import { ConfirmDeleteModal } from '../../../components/confirm-delete-modal';
import { ReplyCard } from './reply-card';
import { ReplyForm } from './reply-form';
import '../replies.css';

const SKELETON_CARDS = 3;

/** The open form: a new reply (id null) or the reply being edited, with its starting draft. */
interface OpenForm {
  id: string | null;
  draft: ReplyDraft;
}

/** /automated-replies: the list of replies, the inline create/edit form, delete with confirmation. */
export function AutomatedRepliesPage() {
  const { t } = useTranslation();
  const [replies, setReplies] = useState<AutomatedReply[] | null>(null);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<OpenForm | null>(null);
  const [deleting, setDeleting] = useState<AutomatedReply | null>(null);

  const load = useCallback(
    () =>
      getReplies()
        .then(setReplies)
        .catch(() => {
          setReplies((current) => current ?? []);
          setError(t('replies.failed_to_fetch_data'));
        }),
    [t],
  );

  useEffect(() => {
    void load();
    getTemplates()
      .then((templates) => setSuggestions(triggerSuggestions(templates)))
      .catch((problem: unknown) => console.warn('templates for trigger suggestions', problem));
  }, [load]);

  const others = useMemo(() => otherTriggers(replies ?? [], form?.id ?? null), [replies, form?.id]);
  const triggers = (replies ?? []).filter((reply) => reply._id !== form?.id).map((reply) => reply.trigger);

  async function edit(reply: AutomatedReply) {
    if (form?.id === reply._id) {
      setForm(null);
      return;
    }
    try {
      const steps = reply.flowStepCount > 0 ? await getFlowSteps(reply._id) : [];
      setForm({ id: reply._id, draft: draftFromReply(reply, steps) });
    } catch {
      setError(t('replies.failed_to_fetch_flow_steps'));
    }
  }

  async function save(draft: ReplyDraft) {
    const body = buildReplyForm(draft, others);
    try {
      await (form?.id ? updateReply(form.id, body) : createReply(body));
      setForm(null);
      await load();
    } catch (problem) {
      setError(detailOf(problem, t('replies.failed_to_save_reply')));
    }
  }

  async function remove(reply: AutomatedReply) {
    try {
      await deleteReply(reply._id);
      if (form?.id === reply._id) setForm(null);
    } catch {
      setError(t('replies.failed_to_delete_reply'));
    }
    setDeleting(null);
    await load();
  }

  const formFor = (id: string | null) =>
    form && form.id === id ? (
      <ReplyForm
        key={id ?? 'new'}
        initial={form.draft}
        editing={id !== null}
        others={others}
        triggers={triggers}
        suggestions={suggestions}
        onSave={save}
        onCancel={() => setForm(null)}
      />
    ) : null;

  return (
    <main className="automated-replies">
      <header className="page-header">
        <Link to="/whatsapp">
          <span className="icon-mirror" aria-hidden="true">←</span> {t('replies.back')}
        </Link>
        <div className="replies-title">
          <div>
            <h1>{t('replies.title')}</h1>
            <p className="muted">{t('replies.description')}</p>
          </div>
          <button type="button" className="primary" onClick={() => setForm(form?.id === null ? null : { id: null, draft: emptyDraft() })}>
            {t('replies.addNew')}
          </button>
        </div>
      </header>
      {error && (
        <div role="alert" className="error-banner">
          <button type="button" title={t('replies.dismiss')} onClick={() => setError(null)}>
            {error}
            <span aria-hidden="true"> ✕</span>
          </button>
        </div>
      )}
      {formFor(null)}
      {replies === null ? (
        <div role="status" aria-label={t('replies.loading')} className="reply-list">
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            <div key={i} className="skeleton-card" />
          ))}
        </div>
      ) : replies.length === 0 ? (
        <div className="replies-empty">
          <p>{t('replies.noReplies')}</p>
          <p className="muted">{t('replies.noRepliesHint')}</p>
        </div>
      ) : (
        <div className="reply-list">
          {replies.map((reply) => (
            <div key={reply._id} className="reply-entry">
              <ReplyCard reply={reply} onEdit={() => void edit(reply)} onDelete={() => setDeleting(reply)} />
              {formFor(reply._id)}
            </div>
          ))}
        </div>
      )}
      {deleting && (
        <ConfirmDeleteModal
          title={t('replies.deleteTitle')}
          message={t('replies.deleteConfirm', { trigger: deleting.trigger })}
          deleteLabel={t('replies.delete')}
          deletingLabel={t('replies.deleting')}
          onCancel={() => setDeleting(null)}
          onConfirm={() => remove(deleting)}
        />
      )}
    </main>
  );
}
