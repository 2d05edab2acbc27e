// The device's address book (native only), read for the contact import. The spec's rules: skip
// a contact with no name or no phone; the name is the display name, else first plus last name;
// only the first phone; whitespace stripped.
import type { ContactPayload } from '@capacitor-community/contacts';

export interface ImportedContact {
  name: string;
  phone_number: string;
}

/** The user refused access to the contacts: the spec's permissionDenied. */
export class ContactsPermissionDenied extends Error {
  constructor() {
    super('permissionDenied');
  }
}

/** A device contact as the import route takes it, or null when it lacks a name or a phone. */
export function importedContact(contact: ContactPayload): ImportedContact | null {
  const name = (contact.name?.display?.trim() || [contact.name?.given, contact.name?.family].filter(Boolean).join(' ')).trim();
  const phone = (contact.phones?.[0]?.number ?? '').replace(/\s+/g, '');
  return name && phone ? { name, phone_number: phone } : null;
}

/** What the address book holds: every contact read, and those the import can take. */
export interface DeviceContacts {
  total: number;
  importable: ImportedContact[];
}

/** Asks for the contacts permission (a user's action started this) and reads the address book. */
export async function readDeviceContacts(): Promise<DeviceContacts> {
  const { Contacts } = await import('@capacitor-community/contacts');
  const permission = await Contacts.requestPermissions();
  if (permission.contacts !== 'granted' && permission.contacts !== 'limited') throw new ContactsPermissionDenied();
  const { contacts } = await Contacts.getContacts({ projection: { name: true, phones: true } });
  const importable = contacts.map(importedContact).filter((contact): contact is ImportedContact => contact !== null);
  return { total: contacts.length, importable };
}
