import { useTranslation } from 'react-i18next';
import type { MediaRef } from '../../../lib/api/types';
import { downloadFile } from '../../../lib/media/download-file';
import { mediaObjectUrl } from '../../../lib/media/media-cache';
import { pdfThumbnail } from '../../../lib/thumbnails/pdf-thumbnail';
import { useThumbnail } from '../../../lib/thumbnails/use-thumbnail';
import { CHAT_TOAST_MS, useToast } from '../../../lib/toast/toast-context';
import { extensionOf } from '../document-type';

/**
 * A document as a card: a PDF's first page and page count, otherwise (or until drawn) its file
 * type; opening fetches it with the session and downloads it (never shown as a page of the app).
 */
export function DocumentCard({ media }: { media: MediaRef }) {
  const { t } = useTranslation();
  const showToast = useToast();
  const extension = extensionOf(media.mime_type);
  const name = media.filename || `${t('media.document')}.${extension}`;
  const thumbnail = useThumbnail(extension === 'pdf' ? media.media_url : undefined, pdfThumbnail);

  const open = async () => {
    const url = media.media_url?.startsWith('blob:') ? media.media_url : media.media_url && (await mediaObjectUrl(media.media_url));
    if (!url) {
      showToast(t('failedToOpenDocument'), 'error', CHAT_TOAST_MS);
      return;
    }
    downloadFile(url, name);
  };

  return (
    <button type="button" className="document-card" aria-label={t('media.openDocument', { name })} onClick={() => void open()}>
      {thumbnail.status === 'image' ? (
        <img className="document-thumbnail" src={thumbnail.url} alt={t('media.firstPage', { name })} />
      ) : (
        <span className={`file-icon file-${extension}`} aria-hidden="true" aria-busy={thumbnail.status === 'loading'}>
          {extension.toUpperCase()}
        </span>
      )}
      <span className="document-name">
        {name}
        {thumbnail.status === 'image' && thumbnail.pages !== undefined && (
          <small className="document-pages">{t('media.pages', { count: thumbnail.pages })}</small>
        )}
      </span>
    </button>
  );
}
