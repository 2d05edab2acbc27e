import { useTranslation } from 'react-i18next';
import type { AutomatedReply } from '../api/replies-api';

/** One reply in the list: trigger, Active/Inactive, the Default badge, what it answers. */
export function ReplyCard({ reply, onEdit, onDelete }: { reply: AutomatedReply; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const summary = reply.type === 'interactive' ? t('replies.interactiveList') : reply.responseText || reply.caption;
  return (
    <article className={`reply-card panel-card${reply.isDefault ? ' default' : ''}`} aria-label={reply.trigger}>
      <header className="reply-card-top">
        <h3 dir="auto">{reply.trigger}</h3>
        <span className={`status-pill ${reply.isActive ? 'on' : 'off'}`}>{t(reply.isActive ? 'replies.active' : 'replies.inactive')}</span>
        {reply.isDefault && <span className="badge">{t('replies.default')}</span>}
      </header>
      {summary && (
        <p className="reply-summary" dir="auto">
          {summary}
        </p>
      )}
      {reply.quickReplyButtons.length > 0 && (
        <ul className="message-buttons" aria-label={t('replies.buttons')}>
          {reply.quickReplyButtons.map((button) => (
            <li key={button.id} className="chip">
              {button.title}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        {[
          reply.mediaType && t(`replies.mediaKinds.${reply.mediaType}`),
          reply.flowStepCount > 0 && t('replies.flowSteps', { count: reply.flowStepCount }),
          t('replies.cooldownSummary', { hours: reply.cooldownHours }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      <div className="form-actions">
        <button type="button" aria-label={t('replies.editNamed', { trigger: reply.trigger })} onClick={onEdit}>
          {t('replies.edit')}
        </button>
        <button type="button" className="danger" aria-label={t('replies.deleteNamed', { trigger: reply.trigger })} onClick={onDelete}>
          {t('replies.delete')}
        </button>
      </div>
    </article>
  );
}
