import { useTranslation } from 'react-i18next';
import { DropdownMenu, type MenuItem } from '../../../components/dropdown-menu';
import type { MediaRef, Message } from '../../../lib/api/types';
import { lookupMedia, mediaObjectUrl } from '../../../lib/media/media-cache';
import { saveDocument } from '../../../lib/native/files';
import { saveToGallery } from '../../../lib/native/gallery';
import { isNative } from '../../../lib/native/platform';
import { shareMedia } from '../../../lib/native/share';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { extensionOf } from '../document-type';
import { REACTIONS } from '../reply-context';

/** Spec: a share's outcome shows for 2 seconds. */
const SHARE_TOAST_MS = 2000;

function mediaOf(message: Message): MediaRef | undefined {
  const { content } = message;
  return content.image ?? content.video ?? content.audio ?? content.document ?? content.sticker;
}

function textOf(message: Message): string {
  const { content } = message;
  return content.text ?? content.caption ?? content.full_text ?? content.body ?? '';
}

/** A user who closes a share sheet has not failed to share. */
const cancelled = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** Replying to and reacting on a message; absent while it waits to be sent. */
export interface QuoteActions {
  onQuote: (message: Message) => void;
  onReact: (message: Message, emoji: string) => void;
}

/**
 * Per-message reply, reactions, copy, download (natively: saved into Documents), share (the file
 * itself where the platform can, else a signed link) and, in the native app, save to gallery.
 */
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

  const filename = (ref: MediaRef) => ref.filename ?? `${message.message_id}.${extensionOf(ref.mime_type)}`;

  const download = async (ref: MediaRef, mediaUrl: string) => {
    const [blob, url] = await Promise.all([lookupMedia(mediaUrl), mediaObjectUrl(mediaUrl)]);
    if (!blob || !url) {
      showToast(t('failedToDownload'), 'error', CHAT_TOAST_MS);
      return;
    }
    if ((await saveDocument(blob, url, filename(ref))) === 'device') showToast(t('native.savedToDevice'), 'success', CHAT_TOAST_MS);
  };

  const share = async (ref: MediaRef, mediaUrl: string) => {
    const blob = await lookupMedia(mediaUrl);
    if (!blob) {
      showToast(t('failedToFetchMedia'), 'error', SHARE_TOAST_MS);
      return;
    }
    try {
      const outcome = await shareMedia({ blob, filename: filename(ref), mediaUrl });
      showToast(t(outcome === 'copied' ? 'linkCopied' : 'native.shared'), 'success', SHARE_TOAST_MS);
    } catch (error) {
      if (!cancelled(error)) showToast(t('native.failedToShare'), 'error', SHARE_TOAST_MS);
    }
  };

  const keepInGallery = async (ref: MediaRef, mediaUrl: string) => {
    try {
      const blob = await lookupMedia(mediaUrl);
      if (!blob) throw new Error('media missing');
      await saveToGallery(blob, filename(ref));
      showToast(t('native.savedToGallery'), 'success', CHAT_TOAST_MS);
    } catch (error) {
      console.warn('not saved to gallery', error);
      showToast(t('native.failedToSaveToGallery'), 'error', CHAT_TOAST_MS);
    }
  };

  const items: MenuItem[] = [];
  if (quoting) {
    items.push({ label: t('quote.reply'), onSelect: () => quoting.onQuote(message) });
    for (const emoji of REACTIONS) {
      items.push({ label: t('quote.react', { emoji }), onSelect: () => quoting.onReact(message, emoji) });
    }
  }
  if (text) items.push({ label: t('message.copy'), onSelect: () => void copy(text, 'copiedToClipboard') });
  const mediaUrl = media?.media_url;
  if (media && mediaUrl) {
    items.push({ label: t('media.download'), onSelect: () => void download(media, mediaUrl) });
    items.push({ label: t('message.share'), onSelect: () => void share(media, mediaUrl) });
    const visual = message.content.image ?? message.content.video;
    if (visual && isNative()) items.push({ label: t('native.saveToGallery'), onSelect: () => void keepInGallery(visual, mediaUrl) });
  }
  if (items.length === 0) return null;
  return <DropdownMenu label={t('message.actions')} icon="⌄" items={items} align="end" />;
}
