import type { Message } from '../../../lib/api/types';

/** The first error WhatsApp attached to a message, by its title (or its code). */
function errorTitle(message: Message): string | null {
  const error = message.content.errors?.[0];
  if (!error) return null;
  return error.title || error.message || (error.code !== undefined ? String(error.code) : null);
}

/** A warning line under a message that arrived with errors (an unsupported one says why). */
export function MessageErrorLine({ message }: { message: Message }) {
  const title = errorTitle(message);
  return title ? (
    <p className="message-warning" role="note">
      ⚠ <span dir="auto">{title}</span>
    </p>
  ) : null;
}
