// A WhatsApp Flow's answers (`response_json`) as label → text pairs a person can read.

export interface FlowAnswer {
  label: string;
  value: string;
}

/** Flows send this with every answer; it identifies the flow run, not anything the customer said. */
const TECHNICAL_KEYS = new Set(['flow_token']);

/** `preferred_date` → "preferred date". */
function labelOf(key: string): string {
  return key.replace(/_/g, ' ').trim();
}

/** Nested answers read inline: lists joined with commas, groups as "label: value; …". */
export function readableValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.map(readableValue).join(', ');
  if (typeof value === 'object') {
    return Object.entries(value)
      .map(([key, nested]) => `${labelOf(key)}: ${readableValue(nested)}`)
      .join('; ');
  }
  return String(value);
}

/** The answers of a flow response; a response that is not a JSON object is one unlabelled answer. */
export function flowAnswers(response: unknown): FlowAnswer[] {
  if (response === null || response === undefined || response === '') return [];
  if (typeof response !== 'object' || Array.isArray(response)) return [{ label: '', value: readableValue(response) }];
  return Object.entries(response)
    .filter(([key]) => !TECHNICAL_KEYS.has(key))
    .map(([key, value]) => ({ label: labelOf(key), value: readableValue(value) }));
}
