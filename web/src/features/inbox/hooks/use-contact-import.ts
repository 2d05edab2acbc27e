import { useRef, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { detailOf } from '../../../lib/api/client';
import { isNative } from '../../../lib/native/platform';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { importContacts, importContactsFile, type ImportCounts } from '../api/contacts-import-api';

/** Files the web import takes (vCard 3/4 or CSV). */
export const CONTACT_FILE_ACCEPT = '.vcf,.vcard,.csv,text/vcard,text/x-vcard,text/csv';

export interface ContactImport {
  /** The settings menu's "Import contacts": the device's contacts natively, else a file picker. */
  start: () => void;
  /** The hidden file input of the web import. */
  fileInput: RefObject<HTMLInputElement | null>;
  importFile: (file: File) => Promise<void>;
}

/** The contact import with the spec's messages (importComplete, permissionDenied, …). */
export function useContactImport(): ContactImport {
  const { t } = useTranslation();
  const showToast = useToast();
  const fileInput = useRef<HTMLInputElement>(null);

  const report = async (work: () => Promise<ImportCounts | string>) => {
    try {
      const outcome = await work();
      if (typeof outcome === 'string') showToast(t(outcome), 'info', CHAT_TOAST_MS);
      else showToast(t('importComplete', { ...outcome }), 'success', CHAT_TOAST_MS);
    } catch (error) {
      showToast(detailOf(error, t('failedToImportContacts')), 'error', CHAT_TOAST_MS);
    }
  };

  const importDevice = () =>
    report(async () => {
      const { readDeviceContacts, ContactsPermissionDenied } = await import('../../../lib/native/contacts');
      try {
        const { total, importable } = await readDeviceContacts();
        if (total === 0) return 'noContactsFound';
        if (importable.length === 0) return 'noContactsWithPhone';
        return await importContacts(importable);
      } catch (error) {
        if (error instanceof ContactsPermissionDenied) return 'permissionDenied';
        throw error;
      }
    });

  return {
    start: () => {
      if (isNative()) void importDevice();
      else fileInput.current?.click();
    },
    fileInput,
    importFile: (file) => report(() => importContactsFile(file)),
  };
}
