import { useTranslation } from 'react-i18next';
import type { SharedContact } from '../../../lib/api/types';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';

function nameOf(contact: SharedContact): string {
  const name = contact.name;
  return name?.formatted_name || [name?.first_name, name?.last_name].filter(Boolean).join(' ');
}

/** The phone types WhatsApp sends; any other is the customer's own label, shown as written. */
const PHONE_TYPES = new Set(['CELL', 'MAIN', 'IPHONE', 'HOME', 'WORK']);

function orgOf(contact: SharedContact): string {
  const org = contact.org;
  return [org?.company, org?.department, org?.title].filter(Boolean).join(' · ');
}

/** The card as plain lines, for the clipboard. */
function cardText(contact: SharedContact): string {
  return [
    nameOf(contact),
    orgOf(contact),
    ...(contact.phones ?? []).map((phone) => phone.phone),
    ...(contact.emails ?? []).map((email) => email.email),
    ...(contact.urls ?? []).map((url) => url.url),
  ]
    .filter(Boolean)
    .join('\n');
}

function ContactCard({ contact }: { contact: SharedContact }) {
  const { t } = useTranslation();
  const showToast = useToast();
  const name = nameOf(contact) || t('message.contactCard');
  const org = orgOf(contact);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(cardText(contact));
      showToast(t('copiedToClipboard'), 'success', CHAT_TOAST_MS);
    } catch {
      showToast(t('failedToCopy'), 'error', CHAT_TOAST_MS);
    }
  };
  return (
    <li className="message-card" aria-label={name}>
      <strong className="card-title" dir="auto">
        {name}
      </strong>
      {org && <span className="muted" dir="auto">{org}</span>}
      {(contact.phones ?? []).map((phone, index) => (
        <a key={`phone-${index}`} href={`tel:${phone.phone ?? ''}`} dir="ltr">
          {phone.phone}
          {phone.type && <span className="muted"> · {PHONE_TYPES.has(phone.type) ? t(`message.phoneType.${phone.type}`) : phone.type}</span>}
        </a>
      ))}
      {(contact.emails ?? []).map((email, index) => (
        <a key={`email-${index}`} href={`mailto:${email.email ?? ''}`} dir="ltr">
          {email.email}
        </a>
      ))}
      <button type="button" className="link-button card-action" onClick={() => void copy()}>
        {t('message.copyContact')}
      </button>
    </li>
  );
}

/** Contact cards the customer shared: name, organisation, phones and emails, each copyable. */
export function SharedContacts({ contacts }: { contacts: SharedContact[] }) {
  const { t } = useTranslation();
  return (
    <ul className="shared-contacts" aria-label={t('message.sharedContacts')}>
      {contacts.map((contact, index) => (
        <ContactCard key={index} contact={contact} />
      ))}
    </ul>
  );
}
