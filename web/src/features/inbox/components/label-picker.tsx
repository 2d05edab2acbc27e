import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LabelChip } from '../../../components/label-chip';
import { useDismiss } from '../../../components/use-dismiss';
import { detailOf } from '../../../lib/api/client';
import { getLabels } from '../../../lib/api/labels';
import { getStoredRole } from '../../../lib/api/session-store';
import type { Conversation, Label } from '../../../lib/api/types';
import { customerKey } from '../../../lib/customer/customer-key';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { setLabels } from '../api/team-api';

interface Props {
  conversation: Conversation;
  /** The conversation as the server answered after a change. */
  onChanged: (row: Conversation) => void;
}

/** "Labels": a checklist of the business's labels; each tick or untick is saved at once. */
export function LabelPicker({ conversation, onChanged }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [open, setOpen] = useState(false);
  const [labels, setBusinessLabels] = useState<Label[] | null>(null);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // A label ticked from the keyboard holds the focus: closing the list hands it back to the
  // button, where it would otherwise fall to the page's start.
  const close = useCallback(() => {
    if (root.current?.contains(document.activeElement)) button.current?.focus();
    setOpen(false);
  }, []);
  useDismiss(open, root, close);
  const carried = conversation.labels ?? [];

  const toggleOpen = () => {
    if (!open) {
      // The list is read at each opening, so labels made meanwhile are there.
      getLabels()
        .then(setBusinessLabels)
        .catch((error: unknown) => showToast(detailOf(error, t('labels.loadFailed')), 'error', CHAT_TOAST_MS));
    }
    setOpen((value) => !value);
  };

  const toggle = async (label: Label) => {
    const ids = carried.map((item) => item.id);
    const next = ids.includes(label.id) ? ids.filter((id) => id !== label.id) : [...ids, label.id];
    setBusy(true);
    try {
      // The answer is the row; who it is known as here travels with it, so it matches by key.
      const { phone_number, user_id, conversation_id } = conversation;
      onChanged({ ...(await setLabels(customerKey(conversation), next)), phone_number, user_id, conversation_id });
    } catch (error) {
      showToast(detailOf(error, t('labels.applyFailed')), 'error', CHAT_TOAST_MS);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="menu label-picker" ref={root}>
      <button ref={button} type="button" aria-haspopup="true" aria-expanded={open} onClick={toggleOpen}>
        {t('labels.button')}
      </button>
      {open && (
        <div role="group" aria-label={t('labels.pickerTitle')} className="menu-items end label-picker-list">
          {labels === null ? (
            <p className="muted">{t('loading')}</p>
          ) : labels.length === 0 ? (
            <p className="muted">
              {t('labels.noneYet')} {getStoredRole() === 'admin' && <Link to="/edit-profile">{t('labels.manage')}</Link>}
            </p>
          ) : (
            labels.map((label) => (
              <label key={label.id} className="label-choice">
                <input type="checkbox" checked={carried.some((item) => item.id === label.id)} disabled={busy} onChange={() => void toggle(label)} />
                <LabelChip label={label} />
              </label>
            ))
          )}
        </div>
      )}
    </div>
  );
}
