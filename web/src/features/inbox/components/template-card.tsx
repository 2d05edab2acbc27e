import { useTranslation } from 'react-i18next';
import type { MessageContent } from '../../../lib/api/types';
import { sentHeader, type SentHeader } from '../template-header';
import { DocumentCard } from './document-card';
import { MediaMessage } from './media-message';
import { TextWithLinks } from './text-with-links';
import '../template-card.css';

type Part = string | { text?: string } | undefined;

/** Template parts come either as plain strings or as objects with text. */
export function partText(part: Part): string {
  return typeof part === 'string' ? part : (part?.text ?? '');
}

interface Props {
  template: NonNullable<MessageContent['template_structure']>;
  /** The components the template was sent with: its header's media or location. */
  components?: unknown[];
}

/** A sent template in the chat; each text takes the direction of its own words. */
export function TemplateCard({ template, components }: Props) {
  const header = sentHeader(components);
  const headerText = partText(template.header);
  const footer = partText(template.footer);
  return (
    <div className="template-card">
      {header ? (
        <HeaderMedia header={header} />
      ) : (
        headerText && (
          <strong className="template-header" dir="auto">
            {headerText}
          </strong>
        )
      )}
      <TextWithLinks text={partText(template.body)} />
      {footer && (
        <small className="template-footer" dir="auto">
          {footer}
        </small>
      )}
      {template.buttons?.length ? (
        <div className="message-buttons">
          {template.buttons.map((button) =>
            button.type === 'URL' && button.url ? (
              <a key={button.text} href={button.url} target="_blank" rel="noopener noreferrer" dir="auto">
                {button.text}
              </a>
            ) : button.type === 'PHONE_NUMBER' && button.phone_number ? (
              <a key={button.text} href={`tel:${button.phone_number}`} dir="auto">
                {button.text}
              </a>
            ) : (
              <span key={button.text} className="chip" dir="auto">
                {button.text}
              </span>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}

/** A media header as the message bubble shows media; a location as a small card without a map. */
function HeaderMedia({ header }: { header: SentHeader }) {
  const { t } = useTranslation();
  if (header.kind === 'document') return <DocumentCard media={header.media} />;
  if (header.kind !== 'location') return <MediaMessage kind={header.kind} media={header.media} />;
  return (
    <div className="template-location" role="group" aria-label={t('media.location')}>
      <span aria-hidden="true">📍</span>
      <div>
        {header.name && <strong>{header.name}</strong>}
        {header.address && <span>{header.address}</span>}
        <small dir="ltr">
          {header.latitude}, {header.longitude}
        </small>
      </div>
    </div>
  );
}
