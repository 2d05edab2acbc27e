// "Add variable": puts the next placeholder where the caret is (replacing a selection), then puts
// the caret after it, or between the braces of a named {{}} so its name can be typed at once.
import { useLayoutEffect, useRef } from 'react';
import { nextVariable, type ParameterFormat } from '../template-draft';

export function useVariableInserter<T extends HTMLInputElement | HTMLTextAreaElement>(text: string, format: ParameterFormat, onChange: (text: string) => void) {
  const ref = useRef<T>(null);
  const caret = useRef<number | null>(null);

  useLayoutEffect(() => {
    const element = ref.current;
    if (caret.current === null || !element) return;
    element.focus();
    element.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  const insert = () => {
    const placeholder = nextVariable(text, format);
    const start = ref.current?.selectionStart ?? text.length;
    const end = ref.current?.selectionEnd ?? start;
    onChange(text.slice(0, start) + placeholder + text.slice(end));
    caret.current = start + (format === 'NAMED' ? 2 : placeholder.length);
  };

  return { ref, insert };
}
