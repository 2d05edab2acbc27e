import { useTranslation } from 'react-i18next';
import type { Message } from '../../../lib/api/types';
import { errorOfMessage, readError } from '../whatsapp-errors';

/**
 * A warning under a message WhatsApp attached an error to (an unsupported one says why) or under
 * a send that failed. A well-known code reads as our sentence in the interface language; another
 * reads as WhatsApp's title in its own direction. The code and WhatsApp's own words open below
 * it, for support to quote.
 */
export function MessageErrorLine({ message }: { message: Message }) {
  const { t } = useTranslation();
  const reading = readError(errorOfMessage(message));
  if (!reading) return null;
  const { code, key, words } = reading;
  const [headline, ...rest] = key ? [t(key), ...words] : words.length > 0 ? words : [t('whatsappErrors.unknown')];
  const label = code === null ? t('whatsappErrors.details') : t('whatsappErrors.code', { code });
  return (
    <div className={message.status === 'failed' ? 'message-warning failed' : 'message-warning'} role="note">
      <p>
        ⚠ <span dir={key ? undefined : 'auto'}>{headline}</span>
      </p>
      {rest.length > 0 ? (
        <details>
          <summary>{label}</summary>
          {rest.map((word) => (
            <p key={word} dir="auto">
              {word}
            </p>
          ))}
        </details>
      ) : (
        code !== null && <p className="message-warning-code">{label}</p>
      )}
    </div>
  );
}
