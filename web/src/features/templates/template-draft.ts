// The template creation form's values (spec section 3, "Template draft"), its defaults, how typing
// and the variable buttons change them, and the template JSON they become ("Template as
// submitted"), which the rules check and POST /api/create-template receives.
import { type ButtonType, NAME_MAX, variables } from './template-rules';

export type Category = '' | 'MARKETING' | 'UTILITY';
export type ParameterFormat = 'POSITIONAL' | 'NAMED';
export type HeaderType = 'NONE' | 'TEXT' | 'IMAGE' | 'DOCUMENT' | 'VIDEO' | 'LOCATION';

export const CATEGORIES: Exclude<Category, ''>[] = ['MARKETING', 'UTILITY'];
export const HEADER_TYPES: HeaderType[] = ['NONE', 'TEXT', 'IMAGE', 'DOCUMENT', 'VIDEO', 'LOCATION'];
export const BUTTON_TYPES: ButtonType[] = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE'];

/** The provider's template languages offered by the form. */
export const LANGUAGES = [
  'ar', 'bn', 'cs', 'da', 'de', 'el', 'en', 'en_GB', 'en_US', 'es', 'es_ES', 'es_MX', 'fa', 'fi',
  'fil', 'fr', 'he', 'hi', 'hu', 'id', 'it', 'ja', 'ko', 'ms', 'nl', 'pl', 'pt_BR', 'pt_PT', 'ro', 'ru', 'sv', 'th', 'tr', 'uk', 'ur', 'vi', 'zh_CN',
];

export interface DraftButton {
  /** Local id, for React keys and removal. */
  id: string;
  type: ButtonType;
  text: string;
  urlType: 'static' | 'dynamic';
  url: string;
  /** The URL variable's example, or the copy-code button's offer code. */
  example: string;
  countryCode: string;
  phoneNumber: string;
}

export interface TemplateDraft {
  name: string;
  category: Category;
  language: string;
  parameterFormat: ParameterFormat;
  headerType: HeaderType;
  headerText: string;
  headerExample: string;
  body: string;
  /** Example values of the body variables, by variable name ("1", "2" or a named one). */
  bodyExamples: Record<string, string>;
  footer: string;
  buttons: DraftButton[];
}

export const DEFAULT_DRAFT: TemplateDraft = {
  name: '',
  category: '',
  language: 'en_US',
  parameterFormat: 'POSITIONAL',
  headerType: 'NONE',
  headerText: '',
  headerExample: '',
  body: '',
  bodyExamples: {},
  footer: '',
  buttons: [],
};

/** While typing: lower case, spaces become underscores, anything else that is not allowed goes. */
export function normalizeName(typed: string): string {
  return typed
    .toLowerCase()
    .replace(/\s/g, '_')
    .replace(/[^a-z0-9_]/g, '')
    .slice(0, NAME_MAX);
}

/** The placeholder the variable button adds: {{n}} one above the highest number, or {{}}. */
export function nextVariable(text: string, format: ParameterFormat): string {
  if (format === 'NAMED') return '{{}}';
  const highest = Math.max(0, ...variables(text).filter((name) => /^\d+$/.test(name)).map(Number));
  return `{{${highest + 1}}}`;
}

/** The text with each variable that has an example shown as that example. */
export function fillExamples(text: string, examples: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]*)\s*\}\}/g, (placeholder, name: string) => examples[name]?.trim() || placeholder);
}

/** The distinct variables of a text, in order of first appearance. */
export function distinctVariables(text: string): string[] {
  return [...new Set(variables(text))];
}

let buttonCounter = 0;

export function newButton(type: ButtonType): DraftButton {
  buttonCounter += 1;
  return { id: `button-${buttonCounter}`, type, text: '', urlType: 'static', url: '', example: '', countryCode: '', phoneNumber: '' };
}

/** The URL as sent: a dynamic one gets {{1}} at its end when the user left it out. */
export function submittedUrl(button: DraftButton): string {
  const url = button.url.trim();
  return button.urlType === 'dynamic' && url && !url.includes('{{') ? `${url}{{1}}` : url;
}

/** Country code and number joined without spaces and dashes; empty unless both are given. */
export function submittedPhone(button: DraftButton): string {
  if (!button.countryCode.trim() || !button.phoneNumber.trim()) return '';
  return `${button.countryCode}${button.phoneNumber}`.replace(/[\s-]/g, '');
}

function submittedButton(button: DraftButton): Record<string, unknown> {
  switch (button.type) {
    case 'QUICK_REPLY':
      return { type: button.type, text: button.text };
    case 'URL':
      return {
        type: button.type,
        text: button.text,
        url: submittedUrl(button),
        ...(button.urlType === 'dynamic' ? { example: [button.example] } : {}),
      };
    case 'PHONE_NUMBER':
      return { type: button.type, text: button.text, phone_number: submittedPhone(button) };
    case 'COPY_CODE':
      return { type: button.type, example: button.example };
  }
}

/** Stands for the header file's upload handle; the server puts the real one in its place. */
export const HEADER_HANDLE_PLACEHOLDER = 'HEADER_FILE';

function headerComponent(draft: TemplateDraft, named: boolean): Record<string, unknown> | null {
  switch (draft.headerType) {
    case 'NONE':
      return null;
    case 'TEXT': {
      const [variable] = variables(draft.headerText);
      const component: Record<string, unknown> = { type: 'HEADER', format: 'TEXT', text: draft.headerText };
      if (variable !== undefined) {
        component.example = named
          ? { header_text_named_params: [{ param_name: variable, example: draft.headerExample }] }
          : { header_text: [draft.headerExample] };
      }
      return component;
    }
    case 'LOCATION':
      return { type: 'HEADER', format: 'LOCATION' };
    default:
      return { type: 'HEADER', format: draft.headerType, example: { header_handle: [HEADER_HANDLE_PLACEHOLDER] } };
  }
}

function bodyComponent(draft: TemplateDraft, named: boolean): Record<string, unknown> {
  const component: Record<string, unknown> = { type: 'BODY', text: draft.body };
  const names = distinctVariables(draft.body);
  const example = (name: string) => draft.bodyExamples[name] ?? '';
  if (named) {
    const params = names.filter(Boolean).map((name) => ({ param_name: name, example: example(name) }));
    if (params.length > 0) component.example = { body_text_named_params: params };
  } else {
    const highest = Math.max(0, ...names.filter((name) => /^\d+$/.test(name)).map(Number));
    if (highest > 0) component.example = { body_text: [Array.from({ length: highest }, (_, index) => example(String(index + 1)))] };
  }
  return component;
}

/** The template JSON of the multipart part `template`. */
export function buildTemplate(draft: TemplateDraft): Record<string, unknown> {
  const named = draft.parameterFormat === 'NAMED';
  const header = headerComponent(draft, named);
  const components: Record<string, unknown>[] = [];
  if (header) components.push(header);
  components.push(bodyComponent(draft, named));
  if (draft.footer.trim()) components.push({ type: 'FOOTER', text: draft.footer });
  if (draft.buttons.length > 0) components.push({ type: 'BUTTONS', buttons: draft.buttons.map(submittedButton) });
  const hasVariables = variables(draft.body).length > 0 || (draft.headerType === 'TEXT' && variables(draft.headerText).length > 0);
  return {
    name: draft.name,
    language: draft.language,
    category: draft.category.toUpperCase(),
    components,
    ...(hasVariables ? { parameter_format: draft.parameterFormat } : {}),
  };
}

/** The multipart body of POST /api/create-template: the template, and the header file if any. */
export function templateFormData(template: Record<string, unknown>, file: File | null): FormData {
  const form = new FormData();
  form.append('template', JSON.stringify(template));
  if (file) form.append('file', file, file.name);
  return form;
}
