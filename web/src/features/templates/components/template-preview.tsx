import { useTranslation } from 'react-i18next';
import { variables } from '../template-rules';
import { fillExamples, type TemplateDraft } from '../template-draft';
import { TemplateBubble } from './template-bubble';

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
      <TemplateBubble
        header={
          <>
            {draft.headerType === 'TEXT' && headerText.trim() && (
              <strong className="template-form-bubble-header" dir="auto">
                {headerText}
              </strong>
            )}
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
          </>
        }
        body={fillExamples(draft.body, draft.bodyExamples)}
        placeholder={t('templateForm.previewBody')}
        footer={draft.footer}
        buttons={draft.buttons.map((button) => ({
          key: button.id,
          type: button.type,
          label: button.text.trim() || t(`templateForm.buttonTypes.${button.type}`),
        }))}
      />
    </aside>
  );
}
