import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasMedia, MEDIA_ACCEPT, mediaTypeOf, type MediaDraft } from '../lib/media/media-draft';
import { useMediaUrl } from '../lib/media/use-media-url';
import './media-field.css';

/** Attach, preview and remove a form's optional file (a reply's, a flow step's, a canned reply's). */
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
        <figure className="media-preview" aria-label={t('media.preview')}>
          {media.type === 'image' && source && <img src={source} alt={t('media.preview')} />}
          {media.type === 'video' && source && <video src={source} controls />}
          {media.type === 'audio' && source && <audio src={source} controls />}
          <figcaption>
            {media.file?.name ?? t(`media.${media.type ?? 'document'}`)}
            <button type="button" className="text-button" onClick={remove}>
              {t('media.remove')}
            </button>
          </figcaption>
        </figure>
      )}
      <label className="file-pick">
        {t(shown ? 'media.replace' : 'media.attach')}
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
          {t('media.unsupported')}
        </p>
      )}
    </div>
  );
}
