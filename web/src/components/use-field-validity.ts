import { useCallback, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const isField = (target: EventTarget | null): target is Field =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;

/** The app's words for the rule a field breaks; empty leaves the browser's own. */
export function validityMessage(field: Field, t: TFunction): string {
  const { validity } = field;
  if (validity.valueMissing) return t('validation.required');
  if (validity.typeMismatch) return t(field.type === 'email' ? 'validation.email' : 'validation.format');
  if (validity.tooShort && 'minLength' in field) return t('validation.tooShort', { count: field.minLength });
  if (validity.tooLong && 'maxLength' in field) return t('validation.tooLong', { count: field.maxLength });
  if (validity.patternMismatch) return t('validation.format');
  return '';
}

/**
 * For a form that lets the browser check its fields (`required`, `type="email"`, `minLength`): the
 * bubble the browser shows then says the app's words in the app's language, not the browser's.
 * The answer is the form's `ref`. Every render clears the messages, so a value changed by typing
 * or by code is judged afresh at the next submit.
 */
export function useFieldValidity() {
  const { t } = useTranslation();
  const form = useRef<HTMLFormElement | null>(null);

  useLayoutEffect(() => {
    form.current?.querySelectorAll('input, textarea, select').forEach((field) => isField(field) && field.setCustomValidity(''));
  });

  return useCallback(
    (node: HTMLFormElement | null) => {
      form.current = node;
      if (!node) return;
      // `invalid` does not bubble: the form hears it on its way down to the field.
      const onInvalid = (event: Event) => {
        if (!isField(event.target)) return;
        event.target.setCustomValidity('');
        event.target.setCustomValidity(validityMessage(event.target, t));
      };
      node.addEventListener('invalid', onInvalid, true);
      return () => {
        node.removeEventListener('invalid', onInvalid, true);
        form.current = null;
      };
    },
    [t],
  );
}
