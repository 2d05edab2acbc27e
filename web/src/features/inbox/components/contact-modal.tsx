import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { useFieldValidity } from '../../../components/use-field-validity';
import { ApiError, detailOf } from '../../../lib/api/client';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { addContact, cleanPhone, updateContact } from '../api/inbox-api';

/** A contact being edited: `phone` is null for a customer known only by username (BSUID key). */
export interface EditedContact {
  name: string;
  key: string;
  phone: string | null;
  /** How the customer shows without a phone: their username or BSUID. */
  handle: string;
}

interface Props {
  /** Set in edit mode. */
  contact?: EditedContact;
  onClose: () => void;
  /** The saved contact's customer key and name. */
  onSaved: (key: string, name: string) => void;
}

/**
 * Add or edit a contact; name and phone are required, saving is disabled while submitting. A
 * customer known only by username has no phone to edit: only the name changes.
 */
export function ContactModal({ contact, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();
  const [name, setName] = useState(contact?.name ?? '');
  const [phone, setPhone] = useState(contact?.phone ?? '');
  const [submitting, setSubmitting] = useState(false);
  const form = useFieldValidity();
  const editing = contact !== undefined;
  const phoneless = contact?.phone === null;
  // A refused save gives the focus back inside the dialog (Save was disabled while it ran, which
  // left it on the page): to the phone when the server refused it (not a number, already a
  // contact), else to Save.
  const [refused, setRefused] = useState<'phone' | 'save' | null>(null);
  const phoneField = useRef<HTMLInputElement>(null);
  const saveButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (refused) (refused === 'phone' ? phoneField : saveButton).current?.focus();
  }, [refused]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || (!phoneless && !cleanPhone(phone))) return;
    setSubmitting(true);
    setRefused(null);
    try {
      const saved = contact ? await updateContact(contact.key, name.trim(), phoneless ? null : phone) : await addContact(name.trim(), phone);
      showToast(t(editing ? 'updateContactSuccess' : 'addContactSuccess'), 'success', CHAT_TOAST_MS);
      // The server's key, not the typed number: it drops spaces and dashes and adds the country code.
      onSaved(phoneless && contact ? contact.key : (saved.phone_number ?? cleanPhone(phone)), name.trim());
    } catch (error) {
      showToast(detailOf(error, t(editing ? 'failedToUpdateContact' : 'failedToAddContact')), 'error', CHAT_TOAST_MS);
      setSubmitting(false);
      const aboutPhone = error instanceof ApiError && (error.status === 422 || error.status === 409);
      setRefused(!phoneless && aboutPhone ? 'phone' : 'save');
    }
  };

  return (
    <Modal title={t(editing ? 'contact.editTitle' : 'contact.addTitle')} onClose={onClose}>
      <form ref={form} className="form" onSubmit={(event) => void submit(event)}>
        <label>
          {t('contact.name')}
          <input required value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        {phoneless ? (
          <p className="muted">
            {t('contact.whatsappUser')} <bdi dir="ltr">{contact?.handle}</bdi>
            <br />
            {t('contact.noPhone')}
          </p>
        ) : (
          <label>
            {t('contact.phone')}
            <input ref={phoneField} required type="tel" dir="ltr" aria-invalid={refused === 'phone' || undefined} value={phone} onChange={(event) => setPhone(event.target.value)} />
          </label>
        )}
        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
          <button ref={saveButton} type="submit" className="primary" disabled={submitting}>
            {t('save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
