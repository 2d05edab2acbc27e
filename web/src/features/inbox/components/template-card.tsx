import type { MessageContent } from '../../../lib/api/types';
import { TextWithLinks } from './text-with-links';

type Part = string | { text?: string } | undefined;

/** Template parts come either as plain strings or as objects with text. */
export function partText(part: Part): string {
  return typeof part === 'string' ? part : (part?.text ?? '');
}

export function TemplateCard({ template }: { template: NonNullable<MessageContent['template_structure']> }) {
  const header = partText(template.header);
  const footer = partText(template.footer);
  return (
    <div className="template-card">
      {header && <strong className="template-header">{header}</strong>}
      <TextWithLinks text={partText(template.body)} />
      {footer && <small className="template-footer">{footer}</small>}
      {template.buttons?.length ? (
        <div className="message-buttons">
          {template.buttons.map((button) =>
            button.type === 'URL' && button.url ? (
              <a key={button.text} href={button.url} target="_blank" rel="noopener noreferrer">
                {button.text}
              </a>
            ) : button.type === 'PHONE_NUMBER' && button.phone_number ? (
              <a key={button.text} href={`tel:${button.phone_number}`}>
                {button.text}
              </a>
            ) : (
              <span key={button.text} className="chip">
                {button.text}
              </span>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
