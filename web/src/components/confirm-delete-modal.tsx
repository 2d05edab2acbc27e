import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './modal';

/** Asks before something is deleted; the delete button shows `deletingLabel` while the call runs. */
export function ConfirmDeleteModal({
  title,
  message,
  deleteLabel,
  deletingLabel,
  onCancel,
  onConfirm,
}: {
  title: string;
  message: string;
  deleteLabel: string;
  deletingLabel: string;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  return (
    <Modal title={title} onClose={onCancel}>
      <p>{message}</p>
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
          {deleting ? deletingLabel : deleteLabel}
        </button>
      </div>
    </Modal>
  );
}
