import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import type { AutomatedReply } from '../api/replies-api';

/** Asks before a reply is deleted; a deleting flag shows while the call runs. */
export function DeleteReplyModal({ reply, onCancel, onConfirm }: { reply: AutomatedReply; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  return (
    <Modal title={t('replies.deleteTitle')} onClose={onCancel}>
      <p>{t('replies.deleteConfirm', { trigger: reply.trigger })}</p>
      <div className="modal-actions">
        <button type="button" onClick={onCancel} disabled={deleting}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={deleting}
          onClick={() => {
            setDeleting(true);
            void onConfirm();
          }}
        >
          {t(deleting ? 'replies.deleting' : 'replies.delete')}
        </button>
      </div>
    </Modal>
  );
}
