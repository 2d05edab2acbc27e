import { useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';

type Props = { label: string; value: string; onValue: (value: string) => void } & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'autoComplete' | 'placeholder' | 'aria-describedby'
>;

/** A credential shown as dots until its Show button is pressed, so it is not read over a shoulder. */
export function SecretInput({ label, value, onValue, autoComplete = 'off', ...rest }: Props) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <div className="secret-field">
      <label>
        {label}
        <input
          type={shown ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          spellCheck={false}
          dir="ltr"
          onChange={(event) => onValue(event.target.value)}
          {...rest}
        />
      </label>
      <button
        type="button"
        className="text-button"
        aria-label={t(shown ? 'profile.hideSecret' : 'profile.showSecret', { field: label })}
        onClick={() => setShown((current) => !current)}
      >
        {t(shown ? 'profile.hide' : 'profile.show')}
      </button>
    </div>
  );
}
