import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DropdownMenu } from '../../../components/dropdown-menu';
import { useToast } from '../../../lib/toast/toast-context';
import { COUNTRY_CODES } from '../country-codes';
import { BUTTON_LIMITS, BUTTON_TEXT_MAX, BUTTONS_TOTAL_MAX, COPY_CODE_MAX, type ButtonType, type Failure } from '../template-rules';
import { BUTTON_TYPES, type DraftButton, newButton } from '../template-draft';
import { FieldError } from './field-error';

interface Props {
  buttons: DraftButton[];
  onChange: (buttons: DraftButton[]) => void;
  failure: Failure | null;
}

/** The add-button menu (with the per-type and total maximums) and the removable buttons. */
export function ButtonsEditor({ buttons, onChange, failure }: Props) {
  const { t } = useTranslation();
  const showToast = useToast();

  const add = (type: ButtonType) => {
    const limit = BUTTON_LIMITS.find((entry) => entry.type === type);
    if (limit && buttons.filter((button) => button.type === type).length >= limit.max) {
      showToast(t('maxButtonsReached', { max: limit.max, type: t(`templateForm.buttonTypes.${type}`) }), 'error');
    } else if (buttons.length >= BUTTONS_TOTAL_MAX) {
      showToast(t('maxTotalButtonsReached'), 'error');
    } else {
      onChange([...buttons, newButton(type)]);
    }
  };
  const edit = (id: string, patch: Partial<DraftButton>) => onChange(buttons.map((button) => (button.id === id ? { ...button, ...patch } : button)));

  return (
    <fieldset className="template-form-section">
      <legend>{t('templateForm.buttons')}</legend>
      <DropdownMenu
        label={t('templateForm.addButton')}
        icon={`+ ${t('templateForm.addButton')}`}
        items={BUTTON_TYPES.map((type) => ({ label: t(`templateForm.buttonTypes.${type}`), onSelect: () => add(type) }))}
      />
      {buttons.length === 0 && <p className="note">{t('templateForm.noButtons')}</p>}
      {buttons.map((button, index) => (
        <ButtonRow
          key={button.id}
          n={index + 1}
          button={button}
          broken={failure?.values?.n === index + 1 ? failure.rule : undefined}
          onEdit={(patch) => edit(button.id, patch)} onRemove={() => onChange(buttons.filter((other) => other.id !== button.id))} />
      ))}
      <FieldError failure={failure} section="buttons" />
    </fieldset>
  );
}

/** The field of a button each of its rules is about. */
const FIELD_OF_RULE: Partial<Record<string, keyof DraftButton>> = {
  button_text_required: 'text',
  button_text_length: 'text',
  url_required: 'url',
  url_variable: 'url',
  url_invalid: 'url',
  url_example: 'example',
  phone_required: 'phoneNumber',
  phone_invalid: 'phoneNumber',
  copy_code_required: 'example',
  copy_code_length: 'example',
};

/** One button's fields; `broken`, the rule of this button that a submit found broken. */
function ButtonRow({ n, button, broken, onEdit, onRemove }: { n: number; button: DraftButton; broken?: string; onEdit: (patch: Partial<DraftButton>) => void; onRemove: () => void }) {
  const { t, i18n } = useTranslation();
  // A phone without its country code is the code's to fix first.
  const field = broken === 'phone_required' && !button.countryCode ? 'countryCode' : broken && FIELD_OF_RULE[broken];
  const invalid = (name: keyof DraftButton) => (field === name ? true : undefined);
  const regions = useMemo(() => new Intl.DisplayNames([i18n.language || 'en'], { type: 'region' }), [i18n.language]);
  return (
    <fieldset className="template-form-button">
      <legend>{t('templateForm.buttonLegend', { n, type: t(`templateForm.buttonTypes.${button.type}`) })}</legend>
      {button.type !== 'COPY_CODE' && (
        <label>
          {t('templateForm.buttonText')}
          <input value={button.text} aria-invalid={invalid('text')} maxLength={BUTTON_TEXT_MAX} onChange={(event) => onEdit({ text: event.target.value })} />
        </label>
      )}
      {button.type === 'URL' && (
        <>
          <label>
            {t('templateForm.urlType')}
            <select value={button.urlType} onChange={(event) => onEdit({ urlType: event.target.value as DraftButton['urlType'] })}>
              <option value="static">{t('templateForm.urlTypes.static')}</option>
              <option value="dynamic">{t('templateForm.urlTypes.dynamic')}</option>
            </select>
          </label>
          <label>
            {t('templateForm.url')}
            <input type="url" dir="ltr" value={button.url} aria-invalid={invalid('url')} placeholder="https://" onChange={(event) => onEdit({ url: event.target.value })} />
          </label>
          {button.urlType === 'dynamic' && (
            <>
              <label>
                {t('templateForm.urlExample')}
                <input dir="ltr" value={button.example} aria-invalid={invalid('example')} onChange={(event) => onEdit({ example: event.target.value })} />
              </label>
              <p className="note">{t('templateForm.dynamicUrlHint', { variable: '{{1}}' })}</p>
            </>
          )}
        </>
      )}
      {button.type === 'PHONE_NUMBER' && (
        <div className="template-form-row">
          <label>
            {t('templateForm.countryCode')}
            <select value={button.countryCode} aria-invalid={invalid('countryCode')} onChange={(event) => onEdit({ countryCode: event.target.value })}>
              <option value="">{t('templateForm.chooseCountryCode')}</option>
              {COUNTRY_CODES.map(([region, code]) => (
                <option key={code} value={code}>
                  {regions.of(region)} ({code})
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('templateForm.phoneNumber')}
            <input type="tel" dir="ltr" value={button.phoneNumber} aria-invalid={invalid('phoneNumber')} onChange={(event) => onEdit({ phoneNumber: event.target.value })} />
          </label>
        </div>
      )}
      {button.type === 'COPY_CODE' && (
        <label>
          {t('templateForm.offerCode')}
          <input value={button.example} aria-invalid={invalid('example')} maxLength={COPY_CODE_MAX} onChange={(event) => onEdit({ example: event.target.value })} />
        </label>
      )}
      <button type="button" className="text-button" aria-label={t('templateForm.removeButton', { n })} onClick={onRemove}>
        ✕
      </button>
    </fieldset>
  );
}
