import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';

/** The full-size image viewer. */
export function MediaViewer({ url, alt, onClose }: { url: string; alt: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('media.viewer')} onClose={onClose} className="media-viewer">
      <img src={url} alt={alt} />
      <div className="modal-actions">
        <a href={url} download>
          {t('media.download')}
        </a>
        <button type="button" onClick={onClose}>
          {t('close')}
        </button>
      </div>
    </Modal>
  );
}
