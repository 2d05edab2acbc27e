import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaUrl } from '../../../lib/media/use-media-url';
import { hasMedia, MEDIA_ACCEPT, mediaTypeOf, type MediaDraft } from '../reply-draft';

/** Attach, preview and remove the media of a reply or a flow step. */
export function MediaField({ media, onChange }: { media: MediaDraft; onChange: (media: MediaDraft) => void }) {
  const { t } = useTranslation();
  const [refused, setRefused] = useState(false);
  const stored = useMediaUrl(media.file || media.removeMedia ? undefined : (media.url ?? undefined));
  const source = media.preview ?? (stored.status === 'ready' ? stored.url : null);
  const shown = hasMedia(media);

  function choose(file: File | undefined) {
    if (!file) return;
    const type = mediaTypeOf(file);
    setRefused(type === null);
    if (!type) return;
    if (media.preview) URL.revokeObjectURL(media.preview);
    onChange({ ...media, file, type, preview: type === 'document' ? null : URL.createObjectURL(file), removeMedia: false });
  }

  function remove() {
    if (media.preview) URL.revokeObjectURL(media.preview);
    onChange({ ...media, file: null, preview: null, type: null, removeMedia: media.url !== null });
  }

  return (
    <div className="media-field">
      {shown && (
        <figure className="media-preview" aria-label={t('replies.mediaPreview')}>
          {media.type === 'image' && source && <img src={source} alt={t('replies.mediaPreview')} />}
          {media.type === 'video' && source && <video src={source} controls />}
          {media.type === 'audio' && source && <audio src={source} controls />}
          <figcaption>
            {media.file?.name ?? t(`replies.mediaKinds.${media.type ?? 'document'}`)}
            <button type="button" className="text-button" onClick={remove}>
              {t('replies.removeMedia')}
            </button>
          </figcaption>
        </figure>
      )}
      <label className="file-pick">
        {t(shown ? 'replies.replaceMedia' : 'replies.attachMedia')}
        <input
          type="file"
          className="visually-hidden"
          accept={MEDIA_ACCEPT}
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </label>
      {refused && (
        <p role="alert" className="form-error">
          {t('replies.errors.mediaType')}
        </p>
      )}
    </div>
  );
}
