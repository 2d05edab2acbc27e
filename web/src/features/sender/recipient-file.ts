// Recipient files for a bulk send are parsed by the server (POST /api/recipients/parse); these
// are the messages the user sees for them (spec section 8, "File parsing").
import type { TFunction } from 'i18next';
import { ApiError, detailOf } from '../../lib/api/client';

export const RECIPIENT_FILE_ACCEPT = '.csv,.xls,.xlsx';

export function isRecipientFile(fileName: string): boolean {
  return /\.(csv|xls|xlsx)$/i.test(fileName);
}

const SERVER_TEXTS: Record<string, string> = {
  'Failed to parse CSV': 'sender.parseCsvFailed',
  'Failed to parse Excel file': 'sender.parseExcelFailed',
  'Unsupported file type': 'sender.unsupportedFileType',
};

/** The message for a file the server refused, in the user's language where the spec names it. */
export function recipientFileError(error: unknown, fileName: string, t: TFunction): string {
  if (!(error instanceof ApiError)) return t('sender.parseCsvFailed');
  if (error.status === 415) return t('sender.unsupportedFileType');
  const detail = error.detail ?? '';
  if (detail.startsWith('No valid numbers found in')) return t('sender.noValidNumbers', { fileName });
  const key = SERVER_TEXTS[detail];
  return key ? t(key) : detailOf(error, t('sender.parseCsvFailed'));
}
