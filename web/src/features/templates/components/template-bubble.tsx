import type { ReactNode } from 'react';

const BUTTON_ICONS: Record<string, string> = { QUICK_REPLY: '↩', URL: '↗', PHONE_NUMBER: '✆', COPY_CODE: '❐', CATALOG: '▦', MPM: '▦' };

export interface BubbleButton {
  key: string;
  type: string;
  label: string;
}

interface Props {
  /** The header as shown: text, media or a placeholder (nothing without a header). */
  header: ReactNode;
  body: string;
  /** Shown muted in place of an empty body. */
  placeholder: string;
  footer: string;
  buttons: BubbleButton[];
}

/**
 * A template drawn as WhatsApp shows it: header, body, footer, and the buttons below. Each text takes
 * the direction of its own words (an English template stays left to right in Arabic).
 */
export function TemplateBubble({ header, body, placeholder, footer, buttons }: Props) {
  return (
    <>
      <div className="template-form-bubble">
        {header}
        <p className={body.trim() ? 'template-form-bubble-body' : 'template-form-bubble-body muted'} dir="auto">{body.trim() ? body : placeholder}</p>
        {footer.trim() && (
          <small className="template-form-bubble-footer" dir="auto">
            {footer}
          </small>
        )}
      </div>
      {buttons.length > 0 && (
        <ul className="template-form-bubble-buttons">
          {buttons.map((button) => (
            <li key={button.key}>
              <span aria-hidden="true">{BUTTON_ICONS[button.type] ?? '•'}</span> <bdi>{button.label}</bdi>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
