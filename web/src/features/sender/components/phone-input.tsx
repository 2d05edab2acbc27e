import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { COUNTRIES } from '../phone-number';

interface Props {
  region: string;
  number: string;
  /** Marks the number as the field a failed submit is about. */
  invalid?: boolean;
  onRegion: (region: string) => void;
  onNumber: (number: string) => void;
}

/** A telephone input with a country code choice; country names in the user's language. */
export function PhoneInput({ region, number, invalid, onRegion, onNumber }: Props) {
  const { t, i18n } = useTranslation();
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return COUNTRIES.map((country) => ({ ...country, name: names.of(country.region) ?? country.region })).sort((a, b) =>
      a.name.localeCompare(b.name, i18n.language),
    );
  }, [i18n.language]);
  return (
    <fieldset className="sender-phone">
      <legend>{t('sender.recipient')}</legend>
      <label>
        {t('sender.countryCode')}
        <select value={region} onChange={(event) => onRegion(event.target.value)}>
          {countries.map((country) => (
            <option key={country.region} value={country.region}>
              {country.name} (+{country.code})
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('sender.number')}
        <input type="tel" dir="ltr" inputMode="tel" aria-invalid={invalid || undefined} value={number} onChange={(event) => onNumber(event.target.value)} />
      </label>
    </fieldset>
  );
}
