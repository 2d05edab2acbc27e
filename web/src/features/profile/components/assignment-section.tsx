import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { detailOf } from '../../../lib/api/client';
import { useToast } from '../../../lib/toast/toast-context';
import { updateProfile, type AssignmentMode, type Profile } from '../api/profile-api';

/** The longest claim timeout the server takes: one week. */
export const MAX_CLAIM_TIMEOUT_MINUTES = 10_080;

/** Owner only: whether new conversations go to agents in turn, and how long a claim waits for a reply. */
export function AssignmentSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [mode, setMode] = useState<AssignmentMode>(profile.assignment_mode ?? 'manual');
  const [timeout, setTimeoutText] = useState(String(profile.claim_timeout_minutes ?? 0));
  const [saving, setSaving] = useState(false);
  const minutes = Number(timeout);
  const valid = timeout.trim() !== '' && Number.isInteger(minutes) && minutes >= 0 && minutes <= MAX_CLAIM_TIMEOUT_MINUTES;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    setSaving(true);
    try {
      await updateProfile({ assignment_mode: mode, claim_timeout_minutes: minutes });
      showToast(t('profileUpdatedSuccessfully'), 'success');
    } catch (error) {
      showToast(detailOf(error, t('updateFailed')), 'error');
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="panel-card" aria-labelledby="assignment-heading">
      <h2 id="assignment-heading">{t('profile.assignmentTitle')}</h2>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label>
          {t('profile.assignmentMode')}
          <select value={mode} onChange={(event) => setMode(event.target.value as AssignmentMode)}>
            <option value="manual">{t('profile.assignmentManual')}</option>
            <option value="round_robin">{t('profile.assignmentRoundRobin')}</option>
          </select>
        </label>
        <label>
          {t('profile.claimTimeout')}
          <input
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_CLAIM_TIMEOUT_MINUTES}
            step={1}
            value={timeout}
            aria-describedby="claim-timeout-note"
            aria-invalid={!valid}
            onChange={(event) => setTimeoutText(event.target.value)}
          />
        </label>
        <p id="claim-timeout-note" className={valid ? 'note' : 'form-error'}>
          {valid ? t('profile.claimTimeoutNote') : t('profile.claimTimeoutRange')}
        </p>
        <button type="submit" className="primary" disabled={saving || !valid}>
          {t('profile.saveAssignment')}
        </button>
      </form>
    </section>
  );
}
