import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { snoozeEnd, toLocalInput } from '../snooze';

/** Asks for the date and time a snooze ends. */
export function SnoozeModal({ onClose, onSnooze }: { onClose: () => void; onSnooze: (until: Date) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(() => toLocalInput(snoozeEnd('tomorrow')));
  const [earliest] = useState(() => toLocalInput(new Date()));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const until = new Date(value);
    if (!Number.isNaN(until.getTime())) onSnooze(until);
  };
  return (
    <Modal title={t('team.snoozeUntil')} onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <label>
          {t('team.snoozeUntil')}
          <input type="datetime-local" required value={value} min={earliest} onChange={(event) => setValue(event.target.value)} />
        </label>
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button type="submit" className="primary">
            {t('team.snooze')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
