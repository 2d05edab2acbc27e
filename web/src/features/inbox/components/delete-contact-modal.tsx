import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { detailOf } from '../../../lib/api/client';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { deleteContactHere } from '../deleted-here';

interface Props {
  name: string;
  customerKey: string;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteContactModal({ name, customerKey, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [submitting, setSubmitting] = useState(false);
  const confirm = async () => {
    setSubmitting(true);
    try {
      await deleteContactHere(customerKey);
      showToast(t('deleteContactSuccess'), 'success', CHAT_TOAST_MS);
      onDeleted();
    } catch (error) {
      showToast(detailOf(error, t('failedToDeleteContact')), 'error', CHAT_TOAST_MS);
      setSubmitting(false);
    }
  };
  return (
    <Modal title={t('contact.deleteTitle')} onClose={onClose}>
      <p>{t('contact.deleteConfirm', { name })}</p>
      <div className="modal-actions">
        <button type="button" onClick={onClose}>
          {t('cancel')}
        </button>
        <button type="button" className="danger" disabled={submitting} onClick={() => void confirm()}>
          {t('contact.delete')}
        </button>
      </div>
    </Modal>
  );
}
