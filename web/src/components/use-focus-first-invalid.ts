import { useCallback, useEffect, useRef, useState } from 'react';

/** The controls a form marks as holding a broken rule. */
const INVALID = 'input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]';

/**
 * Scrolls to and focuses the first field of `form` marked `aria-invalid`, in document order; when
 * the broken rule has no field of its own (a list row, a button), its error message instead.
 */
export function focusFirstInvalid(form: HTMLElement): void {
  const target = form.querySelector<HTMLElement>(INVALID) ?? form.querySelector<HTMLElement>('[role="alert"]');
  if (!target) return;
  if (!target.matches(INVALID) && !target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.scrollIntoView?.({ block: 'center' });
  target.focus({ preventScroll: true });
}

/**
 * For a form whose errors render after a failed submit: `ref` goes on the form, `focusInvalid()`
 * is called on the failed submit, and once the errors are drawn the first invalid field has focus.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (asked > 0 && ref.current) focusFirstInvalid(ref.current);
  }, [asked]);
  const focusInvalid = useCallback(() => setAsked((count) => count + 1), []);
  return { ref, focusInvalid };
}
