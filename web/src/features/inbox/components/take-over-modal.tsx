import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import type { Assignee } from '../../../lib/api/types';

/** "Assigned to {name}. Take over and send?" after a send a teammate's hold refused. */
export function TakeOverModal({ holder, onCancel, onConfirm }: { holder: Assignee; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('team.takeOverTitle')} onClose={onCancel}>
      <p>{t('team.takeOverAsk', { name: holder.name })}</p>
      <div className="modal-actions">
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="button" className="primary" onClick={onConfirm}>
          {t('team.takeOverConfirm')}
        </button>
      </div>
    </Modal>
  );
}
