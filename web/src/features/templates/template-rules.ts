// The template form's rules (spec section 5, rules 1–14, button maximums, header media limits),
// checked on the template JSON the form submits, in the server's order
// (server/src/templates/rules.rs): the first failure wins. Both sides run the cases of
// testdata/template-rules.json, so the form refuses exactly what the server refuses.
import { type FileKind, HEADER_MEDIA } from './header-file';

export const NAME_MAX = 512;
export const BODY_MAX = 1024;
export const HEADER_TEXT_MAX = 60;
export const FOOTER_MAX = 60;
export const BUTTON_TEXT_MAX = 25;
export const COPY_CODE_MAX = 15;
export const BUTTONS_TOTAL_MAX = 10;

export type ButtonType = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER' | 'COPY_CODE';

/** Most buttons of each type, in the order their limits are checked; then the total. */
export const BUTTON_LIMITS: { type: ButtonType; max: number; key: string }[] = [
  { type: 'QUICK_REPLY', max: 10, key: 'templateForm.rules.maxQuickReply' },
  { type: 'URL', max: 2, key: 'templateForm.rules.maxUrl' },
  { type: 'PHONE_NUMBER', max: 1, key: 'templateForm.rules.maxPhone' },
  { type: 'COPY_CODE', max: 1, key: 'templateForm.rules.maxCopyCode' },
];

/** The first rule a template breaks: a stable rule name, and the message as a translation key. */
export interface Failure {
  rule: string;
  key: string;
  values?: Record<string, string | number>;
}

/** The header file as the server sees it: its kind read from its first bytes, and its size. */
export interface HeaderFileInfo {
  kind: FileKind;
  size: number;
}

type Json = unknown;
type Mode = 'POSITIONAL' | 'NAMED';

class Broken {
  constructor(readonly failure: Failure) {}
}

function fail(rule: string, key: string, values?: Failure['values']): never {
  throw new Broken({ rule, key, ...(values ? { values } : {}) });
}

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field of an object (undefined for anything else), as serde's `Value::get` with a key. */
const field = (value: Json, key: string): Json => (isObject(value) ? value[key] : undefined);

/** An element of a list (undefined for anything else), as `Value::get` with an index. */
const item = (value: Json, index: number): Json => (Array.isArray(value) ? value[index] : undefined);

/** A string field, trimmed; "" when absent or not a string. */
function text(value: Json, key: string): string {
  const found = field(value, key);
  return typeof found === 'string' ? found.trim() : '';
}

const asString = (value: Json): string => (typeof value === 'string' ? value : '');

/** Lengths count Unicode code points, as the server does. */
export const length = (value: string): number => [...value].length;

const upper = (value: string): string => value.replace(/[a-z]/g, (c) => c.toUpperCase());

const NAME_CHAR = /^[A-Za-z0-9_]*$/;

/** The variables `{{name}}` of a text in order of appearance; `{{}}` gives "". */
export function variables(source: string): string[] {
  const found: string[] = [];
  let rest = source;
  for (let open = rest.indexOf('{{'); open >= 0; open = rest.indexOf('{{')) {
    const after = rest.slice(open + 2);
    const close = after.indexOf('}}');
    if (close < 0) break;
    const inner = after.slice(0, close).trim();
    if (NAME_CHAR.test(inner)) {
      found.push(inner);
      rest = after.slice(close + 2);
    } else {
      rest = after;
    }
  }
  return found;
}

interface Parts {
  header: Json;
  body: Json;
  footer: Json;
  buttons: Json[];
}

/** Checks the submitted template JSON and its header file; null when it passes every rule. */
export function checkTemplate(template: Json, file: HeaderFileInfo | null): Failure | null {
  try {
    check(template, file);
    return null;
  } catch (error) {
    if (error instanceof Broken) return error.failure;
    throw error;
  }
}

function check(template: Json, file: HeaderFileInfo | null): void {
  const { parts, mode } = shape(template);
  // 1–2: name.
  const name = text(template, 'name');
  if (!name) fail('name_required', 'templateForm.rules.nameRequired');
  if (!/^[a-z0-9_]*$/.test(name)) fail('name_format', 'templateForm.rules.nameFormat');
  if (length(name) > NAME_MAX) fail('name_length', 'templateForm.rules.nameLength');
  // 3: category.
  const category = text(template, 'category');
  if (!category) fail('category_required', 'templateForm.rules.categoryRequired');
  if (!['MARKETING', 'UTILITY'].includes(upper(category))) fail('category_value', 'templateForm.rules.categoryValue');
  // 4: language.
  const language = text(template, 'language');
  if (!language) fail('language_required', 'templateForm.rules.languageRequired');
  if (!/^[a-z]{2,3}(_[A-Z]{2,3})?$/.test(language)) fail('language_format', 'templateForm.rules.languageFormat');
  // 5: body.
  const body = text(parts.body, 'text');
  if (!body) fail('body_required', 'templateForm.rules.bodyRequired');
  if (length(body) > BODY_MAX) fail('body_length', 'templateForm.rules.bodyLength');
  // 6 and the media limits, then 7.
  if (parts.header !== undefined) {
    checkMediaHeader(parts.header, file);
    checkTextHeader(parts.header, mode);
  }
  // 8.
  checkBodyExamples(parts.body, body, mode);
  // 9.
  if (mode === 'NAMED') {
    if (variables(body).includes('')) fail('empty_placeholder', 'templateForm.rules.emptyPlaceholderBody', { placeholder: '{{}}' });
    if (headerFormat(parts.header) === 'TEXT' && variables(text(parts.header, 'text')).includes('')) {
      fail('empty_placeholder', 'templateForm.rules.emptyPlaceholderHeader', { placeholder: '{{}}' });
    }
  }
  // 10–13 and the button maximums.
  checkButtons(parts.buttons);
  // 14.
  if (parts.footer !== undefined && length(text(parts.footer, 'text')) > FOOTER_MAX) fail('footer_length', 'templateForm.rules.footerLength');
}

/** What the form itself can never send wrong: the JSON's structure. */
function shape(template: Json): { parts: Parts; mode: Mode } {
  if (!isObject(template)) fail('shape', 'templateForm.rules.notObject');
  const format = template.parameter_format;
  let mode: Mode = 'POSITIONAL';
  if (typeof format === 'string' && ['POSITIONAL', 'NAMED'].includes(upper(format))) mode = upper(format) as Mode;
  else if (format !== undefined && format !== null) fail('shape', 'templateForm.rules.parameterFormat');
  const components = template.components ?? [];
  if (!Array.isArray(components)) fail('shape', 'templateForm.rules.componentsList');
  const parts: Parts = { header: undefined, body: undefined, footer: undefined, buttons: [] };
  let seenButtons = false;
  for (const component of components as Json[]) {
    const kind = upper(text(component, 'type'));
    if (kind === 'BUTTONS') {
      if (seenButtons) fail('shape', 'templateForm.rules.duplicateComponent', { kind });
      seenButtons = true;
      const buttons = field(component, 'buttons');
      if (!Array.isArray(buttons)) fail('shape', 'templateForm.rules.buttonsList');
      for (const button of buttons as Json[]) {
        const type = buttonType(button);
        if (!BUTTON_LIMITS.some((limit) => limit.type === type)) fail('shape', 'templateForm.rules.unknownButtonType', { type });
        parts.buttons.push(button);
      }
      continue;
    }
    const slot = kind === 'HEADER' ? 'header' : kind === 'BODY' ? 'body' : kind === 'FOOTER' ? 'footer' : null;
    if (!slot) fail('shape', 'templateForm.rules.unknownComponent', { type: kind });
    if (parts[slot] !== undefined) fail('shape', 'templateForm.rules.duplicateComponent', { kind });
    parts[slot] = component;
  }
  if (parts.header !== undefined) {
    const format = headerFormat(parts.header);
    if (!['TEXT', 'IMAGE', 'DOCUMENT', 'VIDEO', 'LOCATION'].includes(format)) fail('shape', 'templateForm.rules.unknownHeaderFormat', { format });
  }
  return { parts, mode };
}

const headerFormat = (header: Json): string => upper(text(header, 'format'));

/** Rule 6 and the media table: a media header needs a file of the right kind and size. */
function checkMediaHeader(header: Json, file: HeaderFileInfo | null): void {
  const media = HEADER_MEDIA.find((entry) => entry.format === headerFormat(header));
  if (!media) return;
  if (!file) fail('header_file_required', media.requiredKey);
  if (!media.kinds.includes(file.kind)) fail('header_file_type', media.typeKey);
  if (file.size > media.maxBytes) fail('header_file_size', media.sizeKey);
}

/** Rule 7: a text header's text, example, length and single variable. */
function checkTextHeader(header: Json, mode: Mode): void {
  if (headerFormat(header) !== 'TEXT') return;
  const headerText = text(header, 'text');
  if (!headerText) fail('header_text_required', 'templateForm.rules.headerTextRequired');
  const vars = variables(headerText);
  const example = field(header, 'example');
  const namedExample = item(field(example, 'header_text_named_params'), 0);
  const exampleValue = mode === 'POSITIONAL' ? asString(item(field(example, 'header_text'), 0)).trim() : text(namedExample, 'example');
  if (vars.length > 0 && !exampleValue) fail('header_example', 'templateForm.rules.headerExample');
  if (length(headerText) > HEADER_TEXT_MAX) fail('header_length', 'templateForm.rules.headerLength');
  if (vars.length > 1) fail('header_variable_count', 'templateForm.rules.headerVariableCount');
  const [variable] = vars;
  if (variable === undefined) return;
  if (mode === 'POSITIONAL' && variable !== '1') fail('header_variable_name', 'templateForm.rules.headerVariablePositional', { variable: '{{1}}' });
  if (mode === 'NAMED' && !variable) fail('header_variable_name', 'templateForm.rules.headerVariableName');
  if (mode === 'NAMED' && text(namedExample, 'param_name') !== variable) {
    fail('header_example', 'templateForm.rules.headerExampleFor', { variable: `{{${variable}}}` });
  }
}

/** The largest number the server's `usize` parse accepts. */
const USIZE_MAX = 2n ** 64n - 1n;

/** Rule 8: every body variable has an example value. */
function checkBodyExamples(bodyComponent: Json, body: string, mode: Mode): void {
  const example = field(bodyComponent, 'example');
  const seen = new Set<string>();
  for (const variable of variables(body)) {
    if (seen.has(variable)) continue;
    seen.add(variable);
    let value: string;
    if (mode === 'POSITIONAL') {
      const number = /^\d+$/.test(variable) && BigInt(variable) <= USIZE_MAX ? BigInt(variable) : 0n;
      if (number < 1n) fail('body_variable_format', 'templateForm.rules.bodyVariableFormat', { first: '{{1}}' });
      const row = item(field(example, 'body_text'), 0);
      value = number <= BigInt(Number.MAX_SAFE_INTEGER) ? asString(item(row, Number(number) - 1)).trim() : '';
    } else {
      // An empty {{}} is rule 9's to report.
      if (!variable) continue;
      const params = field(example, 'body_text_named_params');
      const param = Array.isArray(params) ? params.find((p: Json) => text(p, 'param_name') === variable) : undefined;
      value = text(param, 'example');
    }
    if (!value) fail('body_example', 'templateForm.rules.bodyExample', { variable: `{{${variable}}}` });
  }
}

const buttonType = (button: Json): string => upper(text(button, 'type'));

/** A button's example: the first of a list, or a plain string. */
function buttonExample(button: Json): string {
  const example = field(button, 'example');
  return (Array.isArray(example) ? asString(example[0]) : asString(example)).trim();
}

/** The button maximums, then rules 10 to 13, each across all buttons (numbered from 1). */
function checkButtons(buttons: Json[]): void {
  for (const limit of BUTTON_LIMITS) {
    if (buttons.filter((button) => buttonType(button) === limit.type).length > limit.max) fail('button_limits', limit.key);
  }
  if (buttons.length > BUTTONS_TOTAL_MAX) fail('button_limits', 'maxTotalButtonsReached');
  const numbered = buttons.map((button, index) => ({ n: index + 1, button, type: buttonType(button) }));
  // 10.
  for (const { n, button, type } of numbered) {
    const label = text(button, 'text');
    if (type !== 'COPY_CODE' && !label) fail('button_text_required', 'templateForm.rules.buttonTextRequired', { n });
    if (length(label) > BUTTON_TEXT_MAX) fail('button_text_length', 'templateForm.rules.buttonTextLength', { n });
  }
  // 11.
  for (const { n, button, type } of numbered) if (type === 'URL') checkUrlButton(n, button);
  // 12.
  for (const { n, button, type } of numbered) {
    if (type !== 'PHONE_NUMBER') continue;
    const phone = text(button, 'phone_number');
    if (!phone) fail('phone_required', 'templateForm.rules.phoneRequired', { n });
    if (!/^\+?[0-9][0-9 -]{7,}$/.test(phone)) fail('phone_invalid', 'templateForm.rules.phoneInvalid', { n });
  }
  // 13.
  for (const { n, button, type } of numbered) {
    if (type !== 'COPY_CODE') continue;
    const code = buttonExample(button);
    if (!code) fail('copy_code_required', 'templateForm.rules.copyCodeRequired', { n });
    if (length(code) > COPY_CODE_MAX) fail('copy_code_length', 'templateForm.rules.copyCodeLength', { n });
  }
}

/** Rule 11: the URL, with its example substituted for `{{1}}` (or appended), is a web address. */
function checkUrlButton(n: number, button: Json): void {
  const url = text(button, 'url');
  if (!url) fail('url_required', 'templateForm.rules.urlRequired', { n });
  const example = buttonExample(button);
  const dynamic = url.includes('{{');
  if (dynamic && !example) fail('url_example', 'templateForm.rules.urlExample', { n });
  const vars = variables(url);
  if (dynamic && (vars.length !== 1 || vars[0] !== '1')) fail('url_variable', 'templateForm.rules.urlVariable', { n, variable: '{{1}}' });
  const full = url.includes('{{1}}') ? url.replaceAll('{{1}}', example) : url + example;
  if (!isWebAddress(full)) fail('url_invalid', 'templateForm.rules.urlInvalid', { n });
}

function isWebAddress(candidate: string): boolean {
  try {
    const parsed = new URL(candidate);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}
