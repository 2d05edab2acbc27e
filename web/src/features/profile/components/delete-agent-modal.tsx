import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import type { Agent } from '../../../lib/api/agents';

/** Asks before an agent is deleted; the button stays disabled while the call runs. */
export function DeleteAgentModal({ agent, onCancel, onConfirm }: { agent: Agent; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Modal title={t('profile.deleteAgentTitle')} onClose={onCancel}>
      <p>{t('profile.deleteAgentConfirm', { name: `${agent.firstName} ${agent.lastName}` })}</p>
      <div className="modal-actions">
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm();
          }}
        >
          {t('profile.delete')}
        </button>
      </div>
    </Modal>
  );
}
