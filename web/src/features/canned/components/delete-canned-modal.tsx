import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import type { CannedReply } from '../../../lib/api/canned-replies';

/** Asks before a canned reply is deleted. */
export function DeleteCannedModal({ reply, onCancel, onConfirm }: { reply: CannedReply; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  return (
    <Modal title={t('canned.deleteTitle')} onClose={onCancel}>
      <p>{t('canned.deleteConfirm', { shortcut: reply.shortcut })}</p>
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
          {t(deleting ? 'canned.deleting' : 'canned.delete')}
        </button>
      </div>
    </Modal>
  );
}
