import { useTranslation } from 'react-i18next';
import { variables } from '../template-rules';
import { fillExamples, type DraftButton, type TemplateDraft } from '../template-draft';

const BUTTON_ICONS: Record<DraftButton['type'], string> = { QUICK_REPLY: '↩', URL: '↗', PHONE_NUMBER: '✆', COPY_CODE: '❐' };

interface Props {
  draft: TemplateDraft;
  /** The chosen header file: its name, and a data URL for images and videos. */
  file: { name: string; dataUrl: string | null } | null;
}

/** The side panel: a chat bubble with the header, media or placeholder, body, footer and buttons. */
export function TemplatePreview({ draft, file }: Props) {
  const { t } = useTranslation();
  const [headerVariable = ''] = variables(draft.headerText);
  const headerText = fillExamples(draft.headerText, { [headerVariable]: draft.headerExample });
  return (
    <aside className="template-form-preview" aria-label={t('templateForm.preview')}>
      <h2>{t('templateForm.preview')}</h2>
      <div className="template-form-bubble">
        {draft.headerType === 'TEXT' && headerText.trim() && <strong className="template-form-bubble-header">{headerText}</strong>}
        {draft.headerType === 'IMAGE' && file?.dataUrl ? (
          <img className="template-form-media" src={file.dataUrl} alt={file.name} />
        ) : draft.headerType === 'VIDEO' && file?.dataUrl ? (
          <video className="template-form-media" src={file.dataUrl} controls aria-label={file.name} />
        ) : (
          draft.headerType !== 'NONE' &&
          draft.headerType !== 'TEXT' && (
            <div className="template-form-media-placeholder">
              {draft.headerType === 'DOCUMENT' && file ? file.name : t(`templateForm.headerTypes.${draft.headerType}`)}
            </div>
          )
        )}
        <p className={draft.body.trim() ? 'template-form-bubble-body' : 'template-form-bubble-body muted'}>
          {draft.body.trim() ? fillExamples(draft.body, draft.bodyExamples) : t('templateForm.previewBody')}
        </p>
        {draft.footer.trim() && <small className="template-form-bubble-footer">{draft.footer}</small>}
      </div>
      {draft.buttons.length > 0 && (
        <ul className="template-form-bubble-buttons">
          {draft.buttons.map((button) => (
            <li key={button.id}>
              <span aria-hidden="true">{BUTTON_ICONS[button.type]}</span> {button.text.trim() || t(`templateForm.buttonTypes.${button.type}`)}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
