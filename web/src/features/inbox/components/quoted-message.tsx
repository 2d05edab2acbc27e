import { useTranslation } from 'react-i18next';
import type { MessageContext } from '../../../lib/api/types';

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker', 'location']);

/** What a quote says of the message it answers: its words, else the kind of message it was. */
function useQuoteText(context: MessageContext): { who: string; text: string } {
  const { t } = useTranslation();
  const quoted = context.quoted;
  const who = quoted ? t(quoted.direction === 'outgoing' ? 'quote.you' : 'quote.customer') : '';
  if (quoted?.text) return { who, text: quoted.text };
  if (quoted && MEDIA_TYPES.has(quoted.type)) return { who, text: t(`media.${quoted.type}`) };
  return { who, text: t('quote.unavailable') };
}

/** The quote above a reply; choosing it shows the original when it is loaded. */
export function QuotedMessage({ context, onOpen }: { context: MessageContext; onOpen: (messageId: string) => void }) {
  const { t } = useTranslation();
  const { who, text } = useQuoteText(context);
  return (
    <button type="button" className="quoted" aria-label={`${t('quote.goToOriginal')}: ${text}`} onClick={() => onOpen(context.id)}>
      {who && <span className="quoted-who">{who}</span>}
      <span className="quoted-text" dir="auto">
        {text}
      </span>
    </button>
  );
}

/** The composer's note of the message being answered, with a way to cancel the reply. */
export function ReplyingTo({ context, onCancel }: { context: MessageContext; onCancel: () => void }) {
  const { t } = useTranslation();
  const { who, text } = useQuoteText(context);
  return (
    <div className="replying-to" role="status" aria-label={t('quote.replyingTo', { name: who })}>
      <div className="quoted">
        <span className="quoted-who">{t('quote.replyingTo', { name: who })}</span>
        <span className="quoted-text" dir="auto">
          {text}
        </span>
      </div>
      <button type="button" className="icon-button" aria-label={t('quote.cancel')} onClick={onCancel}>
        ×
      </button>
    </div>
  );
}
