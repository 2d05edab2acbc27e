import type { Template, TemplateButton } from '../api/types';
import {
  buildComponents,
  choicesComplete,
  emptyInputs,
  headerKey,
  isApproved,
  needsInputs,
  previewParts,
  templateLabel,
  templateShape,
  UPLOADED_MEDIA_ID,
  variableNames,
  type SenderInputs,
} from './send-components';

function template(components: Template['components'], status = 'APPROVED'): Template {
  return { id: '1', name: 'order_update', language: 'en_US', status, components };
}

const inputs = (change: Partial<SenderInputs>): SenderInputs => ({ ...emptyInputs(), ...change });

const TRACK = { type: 'URL', text: 'Track', url: 'https://example.com/t/{{1}}' };
const COPY = { type: 'COPY_CODE', text: 'Copy' };
const PRODUCTS = { type: 'MPM', text: 'View items' };
const CATALOG = { type: 'CATALOG', text: 'View catalog' };

/** The shape of a template with a plain body and these buttons. */
const withButtons = (buttons: TemplateButton[]) =>
  templateShape(template([{ type: 'BODY', text: 'Hello' }, { type: 'BUTTONS', buttons }]));

describe('template shape', () => {
  it('lists only approved templates, labelled "name (language)"', () => {
    expect(isApproved(template([]))).toBe(true);
    expect(isApproved(template([], 'PENDING'))).toBe(false);
    expect(templateLabel(template([]))).toBe('order_update (en_US)');
  });

  it('reads body variables once each: positional by number, named in order', () => {
    expect(variableNames('Hi {{2}}, order {{1}} for {{2}}')).toEqual(['1', '2']);
    expect(variableNames('{{10}} {{9}}')).toEqual(['9', '10']);
    expect(variableNames('Hi {{first_name}}, {{order_id}} {{first_name}}')).toEqual(['first_name', 'order_id']);
    expect(variableNames('No {{ spaced }} or {{}} placeholders')).toEqual([]);
  });

  it('asks for URL button variables only when the url holds {{1}}', () => {
    const shape = withButtons([
      { type: 'QUICK_REPLY', text: 'Yes' },
      TRACK,
      { type: 'URL', text: 'Home', url: 'https://example.com' },
      COPY,
      PRODUCTS,
    ]);
    expect(shape.urlVariableButtons.map((b) => b.index)).toEqual([1]);
    expect(shape.couponButtons.map((b) => b.index)).toEqual([3]);
    expect(shape.mpmButtons.map((b) => b.index)).toEqual([4]);
    expect(needsInputs(shape)).toBe(true);
    expect(needsInputs(templateShape(template([{ type: 'BODY', text: 'Hello' }])))).toBe(false);
  });

  it('waits for a header file and a product section, never for a typed value (an empty one goes as a space)', () => {
    const typed = templateShape(template([{ type: 'BODY', text: 'Hi {{1}}' }, { type: 'BUTTONS', buttons: [TRACK, COPY] }]));
    expect(choicesComplete(typed, emptyInputs())).toBe(true);
    const image = templateShape(template([{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi {{1}}' }]));
    expect(choicesComplete(image, emptyInputs())).toBe(false);
    expect(choicesComplete(image, inputs({ mediaFile: new File(['png'], 'a.png', { type: 'image/png' }) }))).toBe(true);
    expect(choicesComplete(withButtons([PRODUCTS]), emptyInputs())).toBe(false);
  });
});

describe('components_json', () => {
  it('sends positional body values in order, an empty one as a single space', () => {
    const shape = templateShape(template([{ type: 'BODY', text: 'Order {{2}} for {{1}}' }]));
    expect(buildComponents(shape, inputs({ values: { body_var_1: 'Ana' } }))).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: ' ' },
        ],
      },
    ]);
  });

  it('names named body values with parameter_name', () => {
    const shape = templateShape(template([{ type: 'BODY', text: 'Hi {{first_name}}' }]));
    expect(buildComponents(shape, inputs({ values: { body_var_first_name: 'Sam' } }))).toEqual([
      { type: 'body', parameters: [{ type: 'text', parameter_name: 'first_name', text: 'Sam' }] },
    ]);
  });

  it('sends a text header\'s variable as the header component, named or positional', () => {
    const positional = templateShape(
      template([
        { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
        { type: 'BODY', text: 'Order {{1}}' },
      ]),
    );
    expect(positional.headerVariables).toEqual(['1']);
    expect(needsInputs(positional)).toBe(true);
    expect(buildComponents(positional, inputs({ values: { header_var_1: 'Ana', body_var_1: 'A-7' } }))).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Ana' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'A-7' }] },
    ]);
    const named = templateShape(template([{ type: 'HEADER', format: 'TEXT', text: 'Hi {{name}}' }, { type: 'BODY', text: 'Hello' }]));
    expect(buildComponents(named, inputs({ values: { [headerKey('name')]: 'Sam' } }))).toEqual([
      { type: 'header', parameters: [{ type: 'text', parameter_name: 'name', text: 'Sam' }] },
    ]);
    const plain = templateShape(template([{ type: 'HEADER', format: 'TEXT', text: 'Hello' }, { type: 'BODY', text: 'Hi' }]));
    expect(plain.headerVariables).toEqual([]);
    expect(buildComponents(plain, inputs({}))).toEqual([]);
  });

  it('includes a media header only when a file was chosen, with the placeholder media id', () => {
    const shape = templateShape(template([{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Hi' }]));
    expect(buildComponents(shape, emptyInputs())).toEqual([]);
    const file = new File(['x'], 'photo.png', { type: 'image/png' });
    expect(buildComponents(shape, inputs({ mediaFile: file }))).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { id: UPLOADED_MEDIA_ID } }] },
    ]);
  });

  it('includes a location header only when latitude and longitude parse as numbers', () => {
    const shape = templateShape(template([{ type: 'HEADER', format: 'LOCATION' }, { type: 'BODY', text: 'Hi' }]));
    const location = { latitude: '30.0444', longitude: '-31.2357', name: ' Cairo office ', address: '' };
    expect(buildComponents(shape, inputs({ location }))).toEqual([
      {
        type: 'header',
        parameters: [
          { type: 'location', location: { latitude: 30.0444, longitude: -31.2357, name: 'Cairo office', address: '' } },
        ],
      },
    ]);
    expect(buildComponents(shape, inputs({ location: { ...location, latitude: '30.0.4' } }))).toEqual([]);
    expect(buildComponents(shape, inputs({ location: { ...location, longitude: '' } }))).toEqual([]);
  });

  it('always sends a catalog button, with the thumbnail product when one was given', () => {
    const shape = withButtons([CATALOG]);
    expect(shape.catalogButtons.map((b) => b.index)).toEqual([0]);
    expect(needsInputs(shape)).toBe(false);
    const catalog = (action: object) => [{ type: 'button', sub_type: 'catalog', index: '0', parameters: [{ type: 'action', action }] }];
    expect(buildComponents(shape, inputs({}))).toEqual(catalog({}));
    expect(buildComponents(shape, inputs({ values: { button_catalog_0: ' SKU-1 ' } }))).toEqual(
      catalog({ thumbnail_product_retailer_id: 'SKU-1' }),
    );
  });

  it('builds url, coupon and multi-product buttons with their index as a string', () => {
    const shape = withButtons([TRACK, COPY, PRODUCTS]);
    const sections = [
      { title: 'Shoes', skus: ' sku-1, ,sku-2 ' },
      { title: '', skus: 'sku-3' },
      { title: 'Empty', skus: ' , ' },
    ];
    expect(buildComponents(shape, inputs({ values: { button_var_0: 'A-7', button_code_1: 'SAVE10' }, sections }))).toEqual([
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-7' }] },
      { type: 'button', sub_type: 'copy_code', index: '1', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE10' }] },
      {
        type: 'button',
        sub_type: 'mpm',
        index: '2',
        parameters: [
          {
            type: 'action',
            action: { sections: [{ title: 'Shoes', product_items: [{ product_retailer_id: 'sku-1' }, { product_retailer_id: 'sku-2' }] }] },
          },
        ],
      },
    ]);
    // Without a code or a complete section, those buttons are left out.
    expect(buildComponents(shape, inputs({ values: { button_var_0: 'A-7' } }))).toHaveLength(1);
  });
});

describe('preview', () => {
  it('splits the body into text and variables, empty ones marked missing', () => {
    expect(previewParts('Hi {{1}}, order {{2}}.', { body_var_1: 'Ana' })).toEqual([
      { text: 'Hi ' },
      { variable: '1', value: 'Ana' },
      { text: ', order ' },
      { variable: '2', value: '' },
      { text: '.' },
    ]);
  });

  it('fills a text header from the header values', () => {
    expect(previewParts('Hi {{1}}', { header_var_1: 'Ana', body_var_1: 'Body' }, headerKey)).toEqual([
      { text: 'Hi ' },
      { variable: '1', value: 'Ana' },
    ]);
  });
});
