import { useTranslation } from 'react-i18next';
import type { Failure } from '../template-rules';

export type Section = 'name' | 'category' | 'language' | 'header' | 'body' | 'buttons' | 'footer' | 'form';

/** Where on the form a broken rule is shown. */
export function sectionOf(failure: Failure): Section {
  const { rule, key } = failure;
  if (rule.startsWith('name_')) return 'name';
  if (rule.startsWith('category_')) return 'category';
  if (rule.startsWith('language_')) return 'language';
  if (rule.startsWith('header_') || key.endsWith('Header')) return 'header';
  if (rule.startsWith('body_') || rule === 'empty_placeholder') return 'body';
  if (rule === 'footer_length') return 'footer';
  if (rule === 'shape') return 'form';
  return 'buttons';
}

/** The broken rule's message, inline, when it belongs to this section. */
export function FieldError({ failure, section }: { failure: Failure | null; section: Section }) {
  const { t } = useTranslation();
  if (!failure || sectionOf(failure) !== section) return null;
  return (
    <p className="form-error" role="alert">
      {t(failure.key, failure.values)}
    </p>
  );
}
