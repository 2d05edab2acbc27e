import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaRef } from '../../../lib/api/types';
import { useMediaUrl } from '../../../lib/media/use-media-url';
import { useThumbnail } from '../../../lib/thumbnails/use-thumbnail';
import { videoThumbnail } from '../../../lib/thumbnails/video-thumbnail';
import { MediaViewer } from './media-viewer';

type Kind = 'image' | 'video' | 'audio' | 'sticker';

/**
 * Local previews of files being sent are blob: URLs; server media needs the authenticated fetch,
 * made only once `wanted`.
 */
function useSource(media: MediaRef, wanted: boolean) {
  const local = media.media_url?.startsWith('blob:') ? media.media_url : undefined;
  const remote = useMediaUrl(local || !wanted ? undefined : media.media_url);
  if (local) return { status: 'ready' as const, url: local };
  return remote;
}

export function MediaMessage({ kind, media }: { kind: Kind; media: MediaRef }) {
  const { t } = useTranslation();
  const [viewing, setViewing] = useState(false);
  const [playing, setPlaying] = useState(false);
  // A video is fetched to be played; until then its thumbnail (drawn once, then kept) stands in.
  const source = useSource(media, kind !== 'video' || playing);
  const thumbnail = useThumbnail(kind === 'video' ? media.media_url : undefined, videoThumbnail);

  if (kind === 'video' && !playing) {
    return (
      <div className="video">
        {thumbnail.status === 'image' ? (
          <img src={thumbnail.url} alt={t('media.videoThumbnail')} />
        ) : (
          <div className="video-placeholder" aria-busy={thumbnail.status === 'loading'} aria-label={t('media.video')} role="img" />
        )}
        <button type="button" className="play" aria-label={t('media.play')} onClick={() => setPlaying(true)}>
          ▶
        </button>
      </div>
    );
  }
  if (source.status === 'loading') {
    return <div className="media-placeholder" aria-busy="true">{t(kind === 'audio' ? 'loadingAudio' : 'loading')}</div>;
  }
  if (source.status === 'failed') return <div className="media-placeholder">{t(kind === 'audio' ? 'errorLoadingAudio' : 'failedToFetchMedia')}</div>;

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
      return (
        <div className="video">
          <video src={source.url} controls autoPlay aria-label={t('media.video')} />
        </div>
      );
    case 'audio':
      return <audio src={source.url} controls preload="metadata" aria-label={t('media.audio')} />;
  }
}
