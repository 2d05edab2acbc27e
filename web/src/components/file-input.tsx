import type { InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import './media-field.css';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> & {
  label: string;
  /** The chosen file's name; `undefined` leaves the name to the caller. */
  fileName?: string | null;
};

/**
 * A file input whose button and "no file chosen" are the app's words in its language: the
 * browser's own ("Choose File") follow the browser's language, not the page's.
 */
export function FileInput({ label, fileName, ...input }: Props) {
  const { t } = useTranslation();
  return (
    <label className="file-input">
      {label}
      <span className="file-input-row">
        <span className="file-pick" aria-hidden="true">
          {t('media.chooseFile')}
        </span>
        <input type="file" className="visually-hidden" aria-label={label} {...input} />
        {fileName !== undefined && (
          <span className="file-input-name" dir="auto">
            {fileName ?? t('media.noFileChosen')}
          </span>
        )}
      </span>
    </label>
  );
}
