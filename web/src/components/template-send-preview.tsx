import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './template-send.css';
import { headerKey, isMediaHeader, previewParts, type SenderInputs, type TemplateShape } from '../lib/templates/send-components';

/** Half the side of the map box around a location, in degrees. */
const MAP_SPAN = 0.005;

interface Props {
  shape: TemplateShape | null;
  inputs: SenderInputs;
}

/**
 * The sticky chat-bubble preview; header and body variables without a value show in red. Texts take
 * the direction of their own words, so an English template reads left to right in Arabic.
 */
export function TemplateSendPreview({ shape, inputs }: Props) {
  const { t } = useTranslation();
  return (
    <aside className="sender-preview" aria-label={t('sender.preview')}>
      <h2>{t('sender.preview')}</h2>
      {shape ? (
        <div className="sender-bubble">
          <PreviewHeader shape={shape} inputs={inputs} />
          <p className="message-text" dir="auto">
            <Filled text={shape.bodyText} values={inputs.values} />
          </p>
          {shape.footerText && (
            <small className="muted" dir="auto">
              {shape.footerText}
            </small>
          )}
          {shape.buttons.length > 0 && (
            <ul className="sender-buttons">
              {shape.buttons.map((button, i) => (
                <li key={i} dir="auto">
                  {button.text || t('sender.copyCode')}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <p className="muted">{t('sender.previewEmpty')}</p>
      )}
    </aside>
  );
}

/** A text with its variables' values in place; a variable without one shows in red. */
function Filled({ text, values, header = false }: { text: string; values: Record<string, string>; header?: boolean }) {
  const { t } = useTranslation();
  return previewParts(text, values, header ? headerKey : undefined).map((part, i) =>
    'text' in part ? (
      <span key={i}>{part.text}</span>
    ) : part.value ? (
      <span key={i}>{part.value}</span>
    ) : (
      <span key={i} className="sender-missing" title={t('sender.missingVariable')}>
        {`{{${part.variable}}}`}
      </span>
    ),
  );
}

function PreviewHeader({ shape, inputs }: Props & { shape: TemplateShape }) {
  const { t } = useTranslation();
  const format = shape.headerFormat;
  const file = inputs.mediaFile;
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || format !== 'IMAGE') return;
    const url = URL.createObjectURL(file);
    setImageUrl(url);
    return () => {
      URL.revokeObjectURL(url);
      setImageUrl(null);
    };
  }, [file, format]);

  if (format === 'TEXT') {
    return (
      <strong dir="auto">
        <Filled text={shape.headerText} values={inputs.values} header />
      </strong>
    );
  }
  if (format === 'LOCATION') {
    const latitude = Number(inputs.location.latitude);
    const longitude = Number(inputs.location.longitude);
    const placed = inputs.location.latitude.trim() !== '' && inputs.location.longitude.trim() !== '';
    if (!placed || !Number.isFinite(latitude) || !Number.isFinite(longitude)) {
      return <div className="sender-media-placeholder">{t('sender.location')}</div>;
    }
    const box = [longitude - MAP_SPAN, latitude - MAP_SPAN, longitude + MAP_SPAN, latitude + MAP_SPAN].join(',');
    return (
      <figure className="sender-map">
        <iframe
          title={t('sender.location')}
          src={`https://www.openstreetmap.org/export/embed.html?bbox=${box}&marker=${latitude},${longitude}`}
        />
        <figcaption>
          <strong>{inputs.location.name}</strong> {inputs.location.address}
        </figcaption>
      </figure>
    );
  }
  if (!isMediaHeader(format)) return null;
  if (imageUrl) return <img className="sender-media" src={imageUrl} alt={file?.name ?? ''} />;
  return <div className="sender-media-placeholder">{file?.name ?? t(`sender.headerMedia.${format}`)}</div>;
}
