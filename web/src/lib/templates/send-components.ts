// What an approved template asks the sender for, and the send-template `components_json` built
// from the user's inputs (spec sections 3 and 5, "Template sender").
import type { Template, TemplateButton } from '../api/types';

export const APPROVED = 'APPROVED';

/** The media id of an uploaded header file; the server puts the stored file's id in its place. */
export const UPLOADED_MEDIA_ID = 'uploaded_media_file';

const VARIABLE = /\{\{([A-Za-z0-9_]+)\}\}/g;
const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'];

/** Accepted header files per media format. */
export const MEDIA_ACCEPT: Record<string, string> = {
  IMAGE: 'image/jpeg,image/png',
  VIDEO: 'video/mp4',
  DOCUMENT: 'application/pdf',
};

export interface LocationInput {
  latitude: string;
  longitude: string;
  name: string;
  address: string;
}

export interface ProductSection {
  title: string;
  /** Comma-separated product retailer ids. */
  skus: string;
}

/**
 * The sender's inputs; `values` is keyed header_var_{name} (a text header's variable),
 * body_var_{name}, button_var_{index}, button_code_{index}, button_catalog_{index} (a catalog
 * button's thumbnail product).
 */
export interface SenderInputs {
  values: Record<string, string>;
  mediaFile: File | null;
  location: LocationInput;
  sections: ProductSection[];
}

export const EMPTY_LOCATION: LocationInput = { latitude: '', longitude: '', name: '', address: '' };
export const EMPTY_SECTION: ProductSection = { title: '', skus: '' };

export function emptyInputs(): SenderInputs {
  return { values: {}, mediaFile: null, location: EMPTY_LOCATION, sections: [EMPTY_SECTION] };
}

/** A button with its position in the template's BUTTONS list (the send's `index`). */
export interface IndexedButton {
  index: number;
  button: TemplateButton;
}

/** The parts of a template that take inputs, read once per chosen template. */
export interface TemplateShape {
  headerFormat: string | null;
  headerText: string;
  /** A text header's variable (at most one). */
  headerVariables: string[];
  bodyText: string;
  bodyVariables: string[];
  footerText: string;
  buttons: TemplateButton[];
  urlVariableButtons: IndexedButton[];
  couponButtons: IndexedButton[];
  mpmButtons: IndexedButton[];
  catalogButtons: IndexedButton[];
}

/**
 * The recipient-file columns that give each recipient its own values of `shape`'s variables: a
 * body variable's position or name, `header_` and a text header's, `header_image_url` (or video,
 * document) for a media header's link.
 */
export function variableColumns(shape: TemplateShape): string[] {
  const media = shape.headerFormat && MEDIA_FORMATS.includes(shape.headerFormat);
  return [
    ...shape.headerVariables.map((name) => `header_${name}`),
    ...(media ? [`header_${shape.headerFormat?.toLowerCase()}_url`] : []),
    ...shape.bodyVariables,
  ];
}

export function isApproved(template: Template): boolean {
  return template.status === APPROVED;
}

/** The dropdown's label of a template: "name (language)". */
export function templateLabel(template: Template): string {
  return `${template.name} (${template.language})`;
}

/** The variable names of a text without repeats: positional ones by number, named ones in order. */
export function variableNames(text: string): string[] {
  const names = [...new Set([...text.matchAll(VARIABLE)].map((match) => match[1] ?? ''))];
  return names.every(isPositional) ? names.sort((a, b) => Number(a) - Number(b)) : names;
}

function isPositional(name: string): boolean {
  return /^\d+$/.test(name);
}

export function templateShape(template: Template): TemplateShape {
  const find = (type: string) => template.components.find((component) => component.type.toUpperCase() === type);
  const header = find('HEADER');
  const headerFormat = header?.format?.toUpperCase() ?? null;
  const headerText = header?.text ?? '';
  const bodyText = find('BODY')?.text ?? '';
  const buttons = find('BUTTONS')?.buttons ?? [];
  const indexed = buttons.map((button, index) => ({ index, button }));
  const ofType = (type: string) => indexed.filter(({ button }) => button.type.toUpperCase() === type);
  return {
    headerFormat,
    headerText,
    headerVariables: headerFormat === 'TEXT' ? variableNames(headerText) : [],
    bodyText,
    bodyVariables: variableNames(bodyText),
    footerText: find('FOOTER')?.text ?? '',
    buttons,
    urlVariableButtons: ofType('URL').filter(({ button }) => button.url?.includes('{{1}}')),
    couponButtons: ofType('COPY_CODE'),
    mpmButtons: ofType('MPM'),
    catalogButtons: ofType('CATALOG'),
  };
}

export function isMediaHeader(format: string | null): boolean {
  return format !== null && MEDIA_FORMATS.includes(format);
}

/** Whether the template needs inputs before it can be sent (submit check 5). */
export function needsInputs(shape: TemplateShape): boolean {
  return (
    shape.headerVariables.length > 0 ||
    shape.bodyVariables.length > 0 ||
    isMediaHeader(shape.headerFormat) ||
    shape.headerFormat === 'LOCATION' ||
    shape.urlVariableButtons.length > 0 ||
    shape.couponButtons.length > 0 ||
    shape.mpmButtons.length > 0
  );
}

/**
 * Whether the inputs that are not typed values have theirs: a header file or a placed location,
 * and a product section (a catalog thumbnail is optional). A typed value left empty is sent as a
 * single space, as the spec says, so it does not hold a send back.
 */
export function choicesComplete(shape: TemplateShape, inputs: SenderInputs): boolean {
  const { latitude, longitude, name } = inputs.location;
  return (
    (!isMediaHeader(shape.headerFormat) || inputs.mediaFile !== null) &&
    (shape.headerFormat !== 'LOCATION' || (coordinate(latitude) !== null && coordinate(longitude) !== null && name.trim() !== '')) &&
    (shape.mpmButtons.length === 0 || productSections(inputs.sections).length > 0)
  );
}

export const headerKey = (name: string) => `header_var_${name}`;
export const bodyKey = (name: string) => `body_var_${name}`;
export const buttonKey = (index: number) => `button_var_${index}`;
export const couponKey = (index: number) => `button_code_${index}`;
export const catalogKey = (index: number) => `button_catalog_${index}`;

/** An empty value is sent as a single space. */
function textParameter(value: string | undefined, name?: string) {
  return { type: 'text', ...(name === undefined ? {} : { parameter_name: name }), text: value || ' ' };
}

/** The text parameters of a text's variables, from the values under `key(name)`. */
function textParameters(names: string[], values: Record<string, string>, key: (name: string) => string) {
  return names.map((name) => textParameter(values[key(name)], isPositional(name) ? undefined : name));
}

/** A decimal number, or null: "any decimal" parses, anything else does not. */
function coordinate(value: string): number | null {
  return /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(value) ? Number(value) : null;
}

/** The sections that have a title and at least one SKU, with SKUs trimmed. */
export function productSections(sections: ProductSection[]) {
  return sections
    .map((section) => ({
      title: section.title.trim(),
      product_items: section.skus
        .split(',')
        .map((sku) => sku.trim())
        .filter(Boolean)
        .map((sku) => ({ product_retailer_id: sku })),
    }))
    .filter((section) => section.title && section.product_items.length > 0);
}

function headerComponent(shape: TemplateShape, inputs: SenderInputs): object | null {
  const format = shape.headerFormat;
  if (shape.headerVariables.length > 0) {
    return { type: 'header', parameters: textParameters(shape.headerVariables, inputs.values, headerKey) };
  }
  if (format && isMediaHeader(format) && inputs.mediaFile) {
    const kind = format.toLowerCase();
    return { type: 'header', parameters: [{ type: kind, [kind]: { id: UPLOADED_MEDIA_ID } }] };
  }
  if (format === 'LOCATION') {
    const latitude = coordinate(inputs.location.latitude);
    const longitude = coordinate(inputs.location.longitude);
    if (latitude === null || longitude === null) return null;
    const { name, address } = inputs.location;
    return {
      type: 'header',
      parameters: [{ type: 'location', location: { latitude, longitude, name: name.trim(), address: address.trim() } }],
    };
  }
  return null;
}

/** The send-template `components_json` for the template and the inputs. */
export function buildComponents(shape: TemplateShape, inputs: SenderInputs): object[] {
  const components: object[] = [];
  const header = headerComponent(shape, inputs);
  if (header) components.push(header);
  if (shape.bodyVariables.length > 0) {
    components.push({ type: 'body', parameters: textParameters(shape.bodyVariables, inputs.values, bodyKey) });
  }
  for (const { index } of shape.urlVariableButtons) {
    components.push({
      type: 'button',
      sub_type: 'url',
      index: String(index),
      parameters: [textParameter(inputs.values[buttonKey(index)])],
    });
  }
  for (const { index } of shape.couponButtons) {
    const code = inputs.values[couponKey(index)]?.trim();
    if (!code) continue;
    components.push({
      type: 'button',
      sub_type: 'copy_code',
      index: String(index),
      parameters: [{ type: 'coupon_code', coupon_code: code }],
    });
  }
  // A catalog button always goes; the thumbnail product is optional (the catalog's first
  // product stands in for it).
  for (const { index } of shape.catalogButtons) {
    const thumbnail = inputs.values[catalogKey(index)]?.trim();
    components.push({
      type: 'button',
      sub_type: 'catalog',
      index: String(index),
      parameters: [{ type: 'action', action: thumbnail ? { thumbnail_product_retailer_id: thumbnail } : {} }],
    });
  }
  const sections = productSections(inputs.sections);
  if (sections.length > 0) {
    for (const { index } of shape.mpmButtons) {
      components.push({
        type: 'button',
        sub_type: 'mpm',
        index: String(index),
        parameters: [{ type: 'action', action: { sections } }],
      });
    }
  }
  return components;
}

/** A piece of the previewed body: literal text, or a variable with its value (empty = missing). */
export type PreviewPart = { text: string } | { variable: string; value: string };

/** The parts of a text whose variables' values are under `key(name)` (the body's by default). */
export function previewParts(text: string, values: Record<string, string>, key = bodyKey): PreviewPart[] {
  const parts: PreviewPart[] = [];
  let last = 0;
  for (const match of text.matchAll(VARIABLE)) {
    const name = match[1] ?? '';
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ variable: name, value: values[key(name)] ?? '' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
