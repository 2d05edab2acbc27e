import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/modal';
import { detailOf } from '../../../lib/api/client';
import type { Template, TemplateComponent } from '../../../lib/api/types';
import { useToast } from '../../../lib/toast/toast-context';
import { useTemplateLibrary } from '../hooks/use-template-library';
import { TemplateBubble } from './template-bubble';

function component(template: Template, type: string): TemplateComponent | undefined {
  return template.components.find((part) => part.type.toUpperCase() === type);
}

/** The library: every template of the business with its review status, a preview, and delete. */
export function TemplateLibrary() {
  const { t } = useTranslation();
  const showToast = useToast();
  const { templates, syncing, sync, remove } = useTemplateLibrary();
  const [deleting, setDeleting] = useState<string | null>(null);

  const syncNow = () => sync().catch((error: unknown) => showToast(detailOf(error, t('templateLibrary.syncFailed')), 'error'));
  const confirmDelete = async (name: string) => {
    try {
      await remove(name);
      showToast(t('templateLibrary.deleted', { name }), 'success');
    } catch (error) {
      showToast(detailOf(error, t('templateLibrary.deleteFailed')), 'error');
    }
    setDeleting(null);
  };

  return (
    <section className="template-library" aria-label={t('templateLibrary.title')}>
      <div className="template-library-toolbar">
        <h2>{t('templateLibrary.title')}</h2>
        <button type="button" disabled={syncing} onClick={() => void syncNow()}>
          {t(syncing ? 'templateLibrary.syncing' : 'templateLibrary.sync')}
        </button>
      </div>
      {templates === null ? (
        <p role="status">{t('loading')}</p>
      ) : templates.length === 0 ? (
        <p className="muted">{t('templateLibrary.empty')}</p>
      ) : (
        <ul className="template-library-list">
          {templates.map((template) => (
            <LibraryCard key={template.id} template={template} onDelete={() => setDeleting(template.name)} />
          ))}
        </ul>
      )}
      {deleting && (
        <Modal title={t('templateLibrary.deleteTitle', { name: deleting })} onClose={() => setDeleting(null)}>
          <p>{t('templateLibrary.deleteConfirm')}</p>
          <div className="modal-actions">
            <button type="button" onClick={() => setDeleting(null)}>
              {t('cancel')}
            </button>
            <button type="button" className="danger" onClick={() => void confirmDelete(deleting)}>
              {t('templateLibrary.delete')}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}

function LibraryCard({ template, onDelete }: { template: Template; onDelete: () => void }) {
  const { t } = useTranslation();
  const header = component(template, 'HEADER');
  const format = header?.format?.toUpperCase() ?? '';
  const buttons = component(template, 'BUTTONS')?.buttons ?? [];
  return (
    <li className="template-library-card" aria-label={template.name}>
      <div className="template-library-head">
        <h3 dir="ltr">{template.name}</h3>
        <span className={`template-library-status template-form-review-${template.status.toLowerCase()}`}>
          {t(`templateForm.reviewStatuses.${template.status}`, { defaultValue: template.status })}
        </span>
      </div>
      <p className="muted">
        <span dir="ltr">{template.language}</span> ·{' '}
        {template.category ? t(`templateForm.categories.${template.category}`, { defaultValue: template.category }) : ''}
      </p>
      {template.reason && <p className="form-error">{t('templateForm.status.reason', { reason: template.reason })}</p>}
      <TemplateBubble
        header={
          format === 'TEXT' ? (
            <strong className="template-form-bubble-header" dir="auto">
              {header?.text}
            </strong>
          ) : (
            format && <div className="template-form-media-placeholder">{t(`templateForm.headerTypes.${format}`, { defaultValue: format })}</div>
          )
        }
        body={component(template, 'BODY')?.text ?? ''}
        placeholder=""
        footer={component(template, 'FOOTER')?.text ?? ''}
        buttons={buttons.map((button, index) => ({ key: String(index), type: button.type, label: button.text }))}
      />
      <button type="button" className="danger" onClick={onDelete} aria-label={t('templateLibrary.deleteNamed', { name: template.name })}>
        {t('templateLibrary.delete')}
      </button>
    </li>
  );
}
