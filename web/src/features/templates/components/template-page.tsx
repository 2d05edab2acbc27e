import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LanguageToggle } from '../../../components/language-toggle';
import { Modal } from '../../../components/modal';
import { useFocusFirstInvalid } from '../../../components/use-focus-first-invalid';
import { ThemeToggle } from '../../../components/theme-toggle';
import { createTemplate, type Submission } from '../api/templates-api';
import { headerMedia } from '../header-file';
import { useHeaderFile } from '../hooks/use-header-file';
import { useReviewStatus } from '../hooks/use-review-status';
import { useVariableInserter } from '../hooks/use-variable-inserter';
import { BODY_MAX, FOOTER_MAX, NAME_MAX, checkTemplate } from '../template-rules';
import {
  CATEGORIES,
  type Category,
  DEFAULT_DRAFT,
  distinctVariables,
  type HeaderType,
  LANGUAGES,
  normalizeName,
  type ParameterFormat,
  type TemplateDraft,
  buildTemplate,
} from '../template-draft';
import { ButtonsEditor } from './buttons-editor';
import { FieldError, sectionOf, type Section } from './field-error';
import { HeaderFields } from './header-fields';
import { SubmissionStatus } from './submission-status';
import { TemplateLibrary } from './template-library';
import { TemplatePreview } from './template-preview';
import './template-page.css';

const FORMATS: { format: ParameterFormat; example: string }[] = [
  { format: 'POSITIONAL', example: '{{1}}' },
  { format: 'NAMED', example: '{{name}}' },
];

const VIEWS = ['create', 'library'] as const;

/** /template: the creation form (its live preview and the submission's review status) and, on a
 * tab beside it (`?view=library`), the library of the business's templates. */
export function TemplatePage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const view = params.get('view') === 'library' ? 'library' : 'create';
  const [draft, setDraft] = useState<TemplateDraft>(DEFAULT_DRAFT);
  const header = useHeaderFile();
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [outcome, setOutcome] = useState<Submission | null>(null);
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  const submitted = outcome?.ok ? submittedTemplate(outcome.result) : null;
  const review = useReviewStatus(submitted);

  const update = (patch: Partial<TemplateDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const { ref: bodyRef, insert: insertBodyVariable } = useVariableInserter<HTMLTextAreaElement>(draft.body, draft.parameterFormat, (body) => update({ body }));
  const template = buildTemplate(draft);
  const fileInfo = header.chosen ? { kind: header.chosen.kind, size: header.chosen.file.size } : null;
  // Rules are shown once a submission was tried, then follow every change.
  const failure = attempted ? checkTemplate(template, fileInfo) : null;
  const invalid = (section: Section) => (failure && sectionOf(failure) === section ? true : undefined);
  // A missing example is the example's field's, not the body text's.
  const missingExample = failure?.rule === 'body_example' ? failure.values?.variable : undefined;
  const { ref: formRef, focusInvalid } = useFocusFirstInvalid();
  const languages = useMemo(() => new Intl.DisplayNames([i18n.language || 'en'], { type: 'language' }), [i18n.language]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (checkTemplate(template, fileInfo)) {
      focusInvalid();
      return;
    }
    setSubmitting(true);
    setOutcome(null);
    setOutcome(await createTemplate(template, headerMedia(draft.headerType) ? (header.chosen?.file ?? null) : null));
    setSubmitting(false);
  };

  const discard = () => {
    setDraft(DEFAULT_DRAFT);
    header.clear();
    setAttempted(false);
    setOutcome(null);
    setConfirmingDiscard(false);
  };

  const changeHeaderType = (headerType: HeaderType) => {
    header.clear();
    update({ headerType });
  };

  return (
    <main className="template-page">
      <header className="template-page-header">
        <Link to="/whatsapp"><span className="icon-mirror" aria-hidden="true">←</span> {t('templateForm.back')}</Link>
        <h1>{t('templateForm.title')}</h1>
        <div className="template-page-toolbar">
          <LanguageToggle />
          <ThemeToggle />
        </div>
      </header>
      <div role="tablist" className="template-tabs" aria-label={t('templateLibrary.views')}>
        {VIEWS.map((choice) => (
          <button
            key={choice}
            type="button"
            role="tab"
            aria-selected={view === choice}
            onClick={() => setParams(choice === 'library' ? { view: choice } : {}, { replace: true })}
          >
            {t(`templateLibrary.tabs.${choice}`)}
          </button>
        ))}
      </div>
      {view === 'library' ? (
        <TemplateLibrary />
      ) : (
        <div className="template-page-layout">
          <form ref={formRef} className="form template-form" aria-label={t('templateForm.title')} noValidate onSubmit={(event) => void submit(event)}>
            <fieldset className="template-form-section">
              <legend>{t('templateForm.details')}</legend>
              <label>
                {t('templateForm.name')}
                <input dir="ltr" value={draft.name} aria-invalid={invalid('name')} maxLength={NAME_MAX} autoComplete="off" spellCheck={false} onChange={(event) => update({ name: normalizeName(event.target.value) })} />
              </label>
              <p className="note">{t('templateForm.nameHint')}</p>
              <FieldError failure={failure} section="name" />
              <label>
                {t('templateForm.category')}
                <select value={draft.category} aria-invalid={invalid('category')} onChange={(event) => update({ category: event.target.value as Category })}>
                  <option value="">{t('templateForm.chooseCategory')}</option>
                  {CATEGORIES.map((category) => (
                    <option key={category} value={category}>
                      {t(`templateForm.categories.${category}`)}
                    </option>
                  ))}
                </select>
              </label>
              <FieldError failure={failure} section="category" />
              <label>
                {t('templateForm.language')}
                <select value={draft.language} aria-invalid={invalid('language')} onChange={(event) => update({ language: event.target.value })}>
                  {LANGUAGES.map((code) => (
                    <option key={code} value={code}>
                      {languages.of(code.replace('_', '-'))} ({code})
                    </option>
                  ))}
                </select>
              </label>
              <FieldError failure={failure} section="language" />
              <div role="radiogroup" aria-label={t('templateForm.parameterFormat')} className="template-form-row">
                <span>{t('templateForm.parameterFormat')}</span>
                {FORMATS.map(({ format, example }) => (
                  <label key={format} className="checkbox">
                    <input type="radio" name="parameter-format" checked={draft.parameterFormat === format} onChange={() => update({ parameterFormat: format })} />
                    {t(`templateForm.formats.${format}`, { example })}
                  </label>
                ))}
              </div>
            </fieldset>

            <HeaderFields
              draft={draft}
              update={update}
              fileName={header.chosen?.file.name ?? null}
              onFile={(file) => {
                const media = headerMedia(draft.headerType);
                if (media) void header.choose(media, file);
              }}
              onHeaderType={changeHeaderType}
              failure={failure}
            />

            <fieldset className="template-form-section">
              <legend>{t('templateForm.body')}</legend>
              <label>
                {t('templateForm.bodyText')}
                <textarea ref={bodyRef} rows={6} value={draft.body} aria-invalid={missingExample ? undefined : invalid('body')} maxLength={BODY_MAX} onChange={(event) => update({ body: event.target.value })} />
              </label>
              <div className="template-form-row">
                <button type="button" onClick={insertBodyVariable}>
                  {t('templateForm.addBodyVariable')}
                </button>
                <span className="note">{t('templateForm.counter', { count: [...draft.body].length, max: BODY_MAX })}</span>
              </div>
              <p className="note">{t('templateForm.variablesHint', { positional: '{{1}}', named: '{{}}' })}</p>
              {distinctVariables(draft.body)
                .filter(Boolean)
                .map((name) => (
                  <label key={name}>
                    {t('templateForm.exampleFor', { variable: `{{${name}}}` })}
                    <input value={draft.bodyExamples[name] ?? ''} aria-invalid={missingExample === `{{${name}}}` || undefined} onChange={(event) => update({ bodyExamples: { ...draft.bodyExamples, [name]: event.target.value } })} />
                  </label>
                ))}
              <FieldError failure={failure} section="body" />
            </fieldset>

            <fieldset className="template-form-section">
              <legend>{t('templateForm.footer')}</legend>
              <label>
                {t('templateForm.footerText')}
                <textarea rows={2} value={draft.footer} aria-invalid={invalid('footer')} maxLength={FOOTER_MAX} onChange={(event) => update({ footer: event.target.value })} />
              </label>
              <span className="note">{t('templateForm.counter', { count: [...draft.footer].length, max: FOOTER_MAX })}</span>
              <FieldError failure={failure} section="footer" />
            </fieldset>

            <ButtonsEditor buttons={draft.buttons} onChange={(buttons) => update({ buttons })} failure={failure} />

            <FieldError failure={failure} section="form" />
            <SubmissionStatus submitting={submitting} outcome={outcome} review={review} />
            <div className="template-form-actions">
              <button type="button" disabled={submitting} onClick={() => setConfirmingDiscard(true)}>
                {t('templateForm.discard')}
              </button>
              <button type="submit" className="primary" disabled={submitting}>
                {t('templateForm.submit')}
              </button>
            </div>
          </form>
          <TemplatePreview draft={draft} file={header.chosen ? { name: header.chosen.file.name, dataUrl: header.chosen.dataUrl } : null} />
        </div>
      )}
      {confirmingDiscard && (
        <Modal title={t('templateForm.discardTitle')} onClose={() => setConfirmingDiscard(false)}>
          <p>{t('templateForm.discardConfirm')}</p>
          <div className="modal-actions">
            <button type="button" onClick={() => setConfirmingDiscard(false)}>
              {t('cancel')}
            </button>
            <button type="button" className="danger" onClick={discard}>
              {t('templateForm.discard')}
            </button>
          </div>
        </Modal>
      )}
    </main>
  );
}

/** The id and status of the create answer's `result`, when it has them. */
function submittedTemplate(result: unknown): { id: string; status: string } | null {
  const fields = (result ?? {}) as Record<string, unknown>;
  if (fields.id === undefined || fields.id === null) return null;
  return { id: String(fields.id), status: typeof fields.status === 'string' ? fields.status : 'PENDING' };
}
