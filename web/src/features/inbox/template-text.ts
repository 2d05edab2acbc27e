// Templates as the provider describes them: components with {{n}} placeholders in the text.

import type { Template } from '../../lib/api/types';

/** The placeholder numbers of a text, in order and without repeats: "Hi {{1}}, {{2}}" → [1, 2]. */
export function placeholders(text: string): number[] {
  const found = [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => Number(match[1]));
  return [...new Set(found)].sort((a, b) => a - b);
}

/** The text with each {{n}} replaced by the n-th value; empty values keep the placeholder. */
export function fillPlaceholders(text: string, values: Record<number, string>): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => values[Number(n)] || whole);
}

export function componentText(template: Template, type: 'HEADER' | 'BODY' | 'FOOTER'): string {
  return template.components.find((component) => component.type.toUpperCase() === type)?.text ?? '';
}

/** The send-template `components` for the body's values. */
export function bodyParameters(template: Template, values: Record<number, string>): unknown[] {
  const numbers = placeholders(componentText(template, 'BODY'));
  if (numbers.length === 0) return [];
  return [{ type: 'body', parameters: numbers.map((n) => ({ type: 'text', text: values[n] ?? '' })) }];
}
