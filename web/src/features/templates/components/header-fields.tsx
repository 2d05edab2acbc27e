import { useTranslation } from 'react-i18next';
import { FileInput } from '../../../components/file-input';
import { headerMedia } from '../header-file';
import { HEADER_TEXT_MAX, type Failure, variables } from '../template-rules';
import { useVariableInserter } from '../hooks/use-variable-inserter';
import { HEADER_TYPES, type HeaderType, type TemplateDraft } from '../template-draft';
import { FieldError } from './field-error';

interface Props {
  draft: TemplateDraft;
  update: (patch: Partial<TemplateDraft>) => void;
  fileName: string | null;
  onFile: (file: File) => void;
  onHeaderType: (type: HeaderType) => void;
  failure: Failure | null;
}

/** The header's rules a wrong header text breaks; `header_example` is its example's. */
const TEXT_RULES = ['header_text_required', 'header_length', 'header_variable_count', 'header_variable_name'];

/** Header type, then its text and example, or its media file chooser with the guidelines. */
export function HeaderFields({ draft, update, fileName, onFile, onHeaderType, failure }: Props) {
  const { t } = useTranslation();
  const media = headerMedia(draft.headerType);
  const [variable] = variables(draft.headerText);
  const textInvalid = failure && (TEXT_RULES.includes(failure.rule) || failure.key === 'templateForm.rules.emptyPlaceholderHeader') ? true : undefined;
  const { ref: headerRef, insert: insertHeaderVariable } = useVariableInserter<HTMLInputElement>(draft.headerText, draft.parameterFormat, (headerText) => update({ headerText }));
  return (
    <fieldset className="template-form-section">
      <legend>{t('templateForm.header')}</legend>
      <label>
        {t('templateForm.headerType')}
        <select value={draft.headerType} onChange={(event) => onHeaderType(event.target.value as HeaderType)}>
          {HEADER_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`templateForm.headerTypes.${type}`)}
            </option>
          ))}
        </select>
      </label>
      {draft.headerType === 'TEXT' && (
        <>
          <label>
            {t('templateForm.headerText')}
            <input ref={headerRef} value={draft.headerText} aria-invalid={textInvalid} maxLength={HEADER_TEXT_MAX} onChange={(event) => update({ headerText: event.target.value })} />
          </label>
          <div className="template-form-row">
            <button type="button" disabled={variable !== undefined} onClick={insertHeaderVariable}>
              {t('templateForm.addHeaderVariable')}
            </button>
            <span className="note">{t('templateForm.counter', { count: [...draft.headerText].length, max: HEADER_TEXT_MAX })}</span>
          </div>
          {variable !== undefined && (
            <label>
              {t('templateForm.exampleFor', { variable: `{{${variable}}}` })}
              <input value={draft.headerExample} aria-invalid={failure?.rule === 'header_example' || undefined} onChange={(event) => update({ headerExample: event.target.value })} />
            </label>
          )}
        </>
      )}
      {media && (
        <>
          <FileInput
            label={t('templateForm.headerFile')}
            accept={media.accept}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) onFile(file);
            }}
          />
          <p className="note">{t(media.hintKey)}</p>
          <p className="template-form-file">{fileName ? t('templateForm.chosenFile', { name: fileName }) : t('templateForm.noFile')}</p>
        </>
      )}
      {draft.headerType === 'LOCATION' && <p className="note">{t('templateForm.locationNote')}</p>}
      <FieldError failure={failure} section="header" />
    </fieldset>
  );
}
