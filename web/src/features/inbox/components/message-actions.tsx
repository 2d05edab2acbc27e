import { useTranslation } from 'react-i18next';
import { DropdownMenu, type MenuItem } from '../../../components/dropdown-menu';
import type { MediaRef, Message } from '../../../lib/api/types';
import { mediaObjectUrl } from '../../../lib/media/media-cache';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { extensionOf } from '../document-type';
import { REACTIONS } from '../reply-context';

function mediaOf(message: Message): MediaRef | undefined {
  const { content } = message;
  return content.image ?? content.video ?? content.audio ?? content.document ?? content.sticker;
}

function textOf(message: Message): string {
  const { content } = message;
  return content.text ?? content.caption ?? content.full_text ?? content.body ?? '';
}

/** Replying to and reacting on a message; absent while it waits to be sent. */
export interface QuoteActions {
  onQuote: (message: Message) => void;
  onReact: (message: Message, emoji: string) => void;
}

/** Per-message reply, reactions, copy, download and share (on the web, share copies the link). */
export function MessageActions({ message, quoting }: { message: Message; quoting?: QuoteActions }) {
  const { t } = useTranslation();
  const showToast = useToast();
  const media = mediaOf(message);
  const text = textOf(message);

  const copy = async (value: string, success: string) => {
    try {
      await navigator.clipboard.writeText(value);
      showToast(t(success), 'success', CHAT_TOAST_MS);
    } catch {
      showToast(t('failedToCopy'), 'error', CHAT_TOAST_MS);
    }
  };

  const download = async (ref: MediaRef) => {
    const url = ref.media_url && (await mediaObjectUrl(ref.media_url));
    if (!url) {
      showToast(t('failedToDownload'), 'error', CHAT_TOAST_MS);
      return;
    }
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = ref.filename ?? `${message.message_id}.${extensionOf(ref.mime_type)}`;
    anchor.click();
  };

  const items: MenuItem[] = [];
  if (quoting) {
    items.push({ label: t('quote.reply'), onSelect: () => quoting.onQuote(message) });
    for (const emoji of REACTIONS) {
      items.push({ label: t('quote.react', { emoji }), onSelect: () => quoting.onReact(message, emoji) });
    }
  }
  if (text) items.push({ label: t('message.copy'), onSelect: () => void copy(text, 'copiedToClipboard') });
  if (media?.media_url) {
    const absolute = new URL(media.media_url, window.location.origin).toString();
    items.push({ label: t('media.download'), onSelect: () => void download(media) });
    items.push({ label: t('message.share'), onSelect: () => void copy(absolute, 'linkCopied') });
  }
  if (items.length === 0) return null;
  return <DropdownMenu label={t('message.actions')} icon="⌄" items={items} align="end" />;
}
