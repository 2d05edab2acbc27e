// WhatsApp's errors as a message shows them. A Cloud API error ({code, title, message,
// error_data: {details}}) comes on a customer's message WhatsApp could not pass on
// (`content.errors`) and on a send that failed (the message's `error`: a `failed` status's, or
// the provider's refusal as the server words it). Meta advises reading the code, not the title
// (titles are English and change): a well-known code reads as our sentence in the interface
// language, any other as WhatsApp's own title; WhatsApp's words stay available for support.
import type { Message, ProviderError } from '../../lib/api/types';

/** Well-known codes (Meta's "WhatsApp error codes") and their sentence under `whatsappErrors.codes`. */
export const KNOWN_CODES: Readonly<Record<number, string>> = {
  131047: 'reengagement',
  470: 'reengagement',
  131026: 'undeliverable',
  131051: 'unsupportedType',
  131052: 'mediaDownload',
  131053: 'mediaUpload',
  130429: 'throughput',
  4: 'throughput',
  80007: 'throughput',
  131056: 'pairRate',
  131048: 'spamLimit',
  131049: 'ecosystemLimit',
  131050: 'marketingOptOut',
  131042: 'payment',
  131031: 'accountLocked',
  368: 'policyBlock',
  131057: 'maintenance',
  133010: 'notRegistered',
  190: 'accessToken',
  10: 'permission',
  131005: 'permission',
  131000: 'generic',
  1: 'generic',
  2: 'unavailable',
  131016: 'unavailable',
  100: 'invalidValue',
  131008: 'invalidValue',
  131009: 'invalidValue',
  132000: 'templateParams',
  132001: 'templateMissing',
  132005: 'templateTooLong',
  132007: 'templatePolicy',
  132012: 'templateFormat',
  132015: 'templatePaused',
  132016: 'templateDisabled',
  131062: 'usernameRecipient',
};

/** A WhatsApp error ready to show. */
export interface ErrorReading {
  /** WhatsApp's code; null when it gave none (Parley's own failures carry 0). */
  code: number | null;
  /** The translation key of our sentence for a well-known code, else null. */
  key: string | null;
  /** WhatsApp's own words, each once: title, message, details. */
  words: string[];
}

/**
 * The error a message shows: why a send failed while it stands failed (a later status can
 * leave an old error behind), else the first one the message arrived with.
 */
export function errorOfMessage(message: Message): unknown {
  if (message.direction === 'outgoing') return message.status === 'failed' ? message.error : null;
  return message.content.errors?.[0] ?? null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

function codeOf(value: unknown): number | null {
  const code = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof code === 'number' && Number.isInteger(code) && code > 0 ? code : null;
}

/** Reads an error as stored (the provider's JSON, so any shape is tolerated); null if none. */
export function readError(value: unknown): ErrorReading | null {
  if (!value || typeof value !== 'object') return null;
  const error = value as ProviderError;
  const code = codeOf(error.code);
  const words = [text(error.title), text(error.message), text(error.error_data?.details)].filter(
    (word, index, all): word is string => word !== null && all.indexOf(word) === index,
  );
  if (code === null && words.length === 0) return null;
  const known = code === null ? undefined : KNOWN_CODES[code];
  return { code, key: known ? `whatsappErrors.codes.${known}` : null, words };
}
