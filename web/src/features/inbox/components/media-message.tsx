import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaRef } from '../../../lib/api/types';
import { useMediaUrl } from '../../../lib/media/use-media-url';
import { MediaViewer } from './media-viewer';

type Kind = 'image' | 'video' | 'audio' | 'sticker';

/** Local previews of files being sent are blob: URLs; server media needs the authenticated fetch. */
function useSource(media: MediaRef) {
  const local = media.media_url?.startsWith('blob:') ? media.media_url : undefined;
  const remote = useMediaUrl(local ? undefined : media.media_url);
  if (local) return { status: 'ready' as const, url: local };
  return remote;
}

export function MediaMessage({ kind, media }: { kind: Kind; media: MediaRef }) {
  const { t } = useTranslation();
  const source = useSource(media);
  const [viewing, setViewing] = useState(false);
  const [playing, setPlaying] = useState(false);

  if (source.status === 'loading') return <div className="media-placeholder" aria-busy="true">{t('loading')}</div>;
  if (source.status === 'failed') return <div className="media-placeholder">{t('failedToFetchMedia')}</div>;

  switch (kind) {
    case 'image':
    case 'sticker':
      return (
        <>
          <button type="button" className="media-button" aria-label={t('media.openImage')} onClick={() => setViewing(true)}>
            <img className={kind} src={source.url} alt={media.filename ?? t('media.image')} />
          </button>
          {viewing && <MediaViewer url={source.url} alt={media.filename ?? t('media.image')} onClose={() => setViewing(false)} />}
        </>
      );
    case 'video':
      // The first frame serves as the thumbnail until the user plays it.
      return (
        <div className="video">
          <video src={source.url} preload="metadata" controls={playing} autoPlay={playing} aria-label={t('media.video')} />
          {!playing && (
            <button type="button" className="play" aria-label={t('media.play')} onClick={() => setPlaying(true)}>
              ▶
            </button>
          )}
        </div>
      );
    case 'audio':
      return <audio src={source.url} controls preload="metadata" aria-label={t('media.audio')} />;
  }
}
