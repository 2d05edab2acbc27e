import { apiRequest } from '../../../lib/api/client';
import type { ImportedContact } from '../../../lib/native/contacts';

/** POST /api/contacts/import answers how each contact fared. */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

/** The device's contacts (native). */
export function importContacts(contacts: ImportedContact[]): Promise<ImportCounts> {
  return apiRequest('/api/contacts/import', { method: 'POST', json: { contacts } });
}

/** A .vcf or .csv file (web). */
export function importContactsFile(file: File): Promise<ImportCounts> {
  const form = new FormData();
  form.append('file', file);
  return apiRequest('/api/contacts/import', { method: 'POST', form });
}
