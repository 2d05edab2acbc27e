// A queued message the server refused for good (the reply window closed while it waited, say)
// shows why under its bubble, as a failed send's WhatsApp error does.
import type { TFunction } from 'i18next';
import { refusalText } from '../../lib/api/server-text';
import type { ProviderError } from '../../lib/api/types';

/**
 * The error shown for the server's reason: its words as they are in English; in another language
 * their translation when known, else our sentence, with the server's words underneath for support.
 */
export function refusalError(failure: string, t: TFunction): ProviderError {
  const translated = refusalText(failure, undefined, [failure]);
  if (translated === failure) return { title: failure };
  return { title: translated ?? t('chat.sendRefused'), message: failure };
}
