import { useTranslation } from 'react-i18next';
import { FileInput } from './file-input';
import './template-send.css';
import {
  bodyKey,
  buttonKey,
  catalogKey,
  headerKey,
  couponKey,
  EMPTY_SECTION,
  isMediaHeader,
  MEDIA_ACCEPT,
  type LocationInput,
  type SenderInputs,
  type TemplateShape,
} from '../lib/templates/send-components';

interface Props {
  shape: TemplateShape;
  inputs: SenderInputs;
  /** After a submit that lacked values: the empty fields are marked invalid. */
  markEmpty?: boolean;
  onChange: (inputs: SenderInputs) => void;
}

const LOCATION_FIELDS: { field: keyof LocationInput; label: string; required?: boolean }[] = [
  { field: 'latitude', label: 'sender.latitude', required: true },
  { field: 'longitude', label: 'sender.longitude', required: true },
  { field: 'name', label: 'sender.locationName', required: true },
  { field: 'address', label: 'sender.locationAddress' },
];

/** One input per part of the template that takes a value. */
export function TemplateInputs({ shape, inputs, markEmpty = false, onChange }: Props) {
  const { t } = useTranslation();
  const value = (key: string) => inputs.values[key] ?? '';
  const setValue = (key: string, text: string) => onChange({ ...inputs, values: { ...inputs.values, [key]: text } });
  const textInput = (key: string, label: string) => (
    <label key={key}>
      {label}
      <input name={key} value={value(key)} aria-invalid={(markEmpty && !value(key).trim()) || undefined} onChange={(event) => setValue(key, event.target.value)} />
    </label>
  );
  const format = shape.headerFormat;
  return (
    <>
      {format && isMediaHeader(format) && (
        <FileInput
          label={t(`sender.headerMedia.${format}`)}
          fileName={inputs.mediaFile?.name ?? null}
          accept={MEDIA_ACCEPT[format]}
          onChange={(event) => onChange({ ...inputs, mediaFile: event.target.files?.[0] ?? null })}
        />
      )}
      {format === 'LOCATION' && (
        <fieldset className="sender-group">
          <legend>{t('sender.location')}</legend>
          {LOCATION_FIELDS.map(({ field, label, required }) => (
            <label key={field}>
              {t(label)}
              <input
                required={required}
                inputMode={field === 'latitude' || field === 'longitude' ? 'decimal' : undefined}
                value={inputs.location[field]}
                onChange={(event) => onChange({ ...inputs, location: { ...inputs.location, [field]: event.target.value } })}
              />
            </label>
          ))}
        </fieldset>
      )}
      {shape.headerVariables.map((name) => textInput(headerKey(name), t('sender.headerVariable', { name })))}
      {shape.bodyVariables.map((name) => textInput(bodyKey(name), t('sender.bodyVariable', { name })))}
      {shape.urlVariableButtons.map(({ index, button }) =>
        textInput(buttonKey(index), t('sender.buttonVariable', { text: button.text, url: button.url })),
      )}
      {shape.couponButtons.map(({ index }) => textInput(couponKey(index), t('sender.couponCode')))}
      {shape.catalogButtons.map(({ index }) => textInput(catalogKey(index), t('sender.catalogThumbnail')))}
      {shape.mpmButtons.length > 0 && (
        <fieldset className="sender-group">
          <legend>{t('sender.products')}</legend>
          {inputs.sections.map((section, position) => {
            const setSection = (change: Partial<typeof section>) =>
              onChange({ ...inputs, sections: inputs.sections.map((s, i) => (i === position ? { ...s, ...change } : s)) });
            return (
              <div key={position} className="sender-section">
                <label>
                  {t('sender.sectionTitle', { n: position + 1 })}
                  <input value={section.title} onChange={(event) => setSection({ title: event.target.value })} />
                </label>
                <label>
                  {t('sender.skus', { n: position + 1 })}
                  <input value={section.skus} onChange={(event) => setSection({ skus: event.target.value })} />
                </label>
              </div>
            );
          })}
          <button type="button" onClick={() => onChange({ ...inputs, sections: [...inputs.sections, EMPTY_SECTION] })}>
            {t('sender.addSection')}
          </button>
        </fieldset>
      )}
    </>
  );
}
