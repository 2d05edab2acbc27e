import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTemplate } from './template-rules';
import {
  DEFAULT_DRAFT,
  LANGUAGES,
  buildTemplate,
  fillExamples,
  newButton,
  nextVariable,
  normalizeName,
  templateFormData,
  type DraftButton,
  type TemplateDraft,
} from './template-draft';

const sharedCases = (JSON.parse(readFileSync(join(__dirname, '../../../../testdata/template-rules.json'), 'utf8')) as { cases: { description: string; template: unknown }[] }).cases;
const sharedTemplate = (description: string) => sharedCases.find((c) => c.description === description)?.template;

const draft = (patch: Partial<TemplateDraft>): TemplateDraft => ({ ...DEFAULT_DRAFT, name: 'order_update', category: 'UTILITY', ...patch });
const button = (type: DraftButton['type'], patch: Partial<DraftButton>): DraftButton => ({ ...newButton(type), ...patch });

describe('template draft', () => {
  it('starts with en_US, positional variables and no header, among about 37 languages', () => {
    expect(DEFAULT_DRAFT).toMatchObject({ language: 'en_US', parameterFormat: 'POSITIONAL', headerType: 'NONE', buttons: [] });
    expect(LANGUAGES).toHaveLength(37);
    expect(LANGUAGES).toEqual(expect.arrayContaining(['ar', 'en_US', 'en_GB', 'fr']));
  });

  it('normalises the name while typing: lower case, spaces to underscores, others dropped, 512 at most', () => {
    expect(normalizeName('Order Update-2026!')).toBe('order_update2026');
    expect(normalizeName('Ünïcode name')).toBe('ncode_name');
    expect(normalizeName('a'.repeat(600))).toHaveLength(512);
  });

  it('adds {{n}} one above the highest number, or an empty {{}} when named', () => {
    expect(nextVariable('', 'POSITIONAL')).toBe('{{1}}');
    expect(nextVariable('Hi {{1}} and {{3}}', 'POSITIONAL')).toBe('{{4}}');
    expect(nextVariable('Hi {{name}}', 'POSITIONAL')).toBe('{{1}}');
    expect(nextVariable('Hi {{1}}', 'NAMED')).toBe('{{}}');
  });

  it('shows examples in place of the variables that have one', () => {
    expect(fillExamples('Hi {{1}}, order {{ 2 }} {{3}}', { '1': 'Sam', '2': '42', '3': ' ' })).toBe('Hi Sam, order 42 {{3}}');
  });
});

describe('template payload', () => {
  it('builds positional variables, every button type and a footer as the shared valid case', () => {
    const built = buildTemplate(
      draft({
        headerType: 'TEXT',
        headerText: 'Hi {{1}}',
        headerExample: 'Sam',
        body: 'Order {{1}} ships {{2}}.',
        bodyExamples: { '1': '123', '2': 'today' },
        footer: 'Reply STOP to opt out',
        buttons: [
          button('QUICK_REPLY', { text: 'Yes' }),
          button('URL', { text: 'Track', urlType: 'dynamic', url: 'https://example.com/track/{{1}}', example: 'abc123' }),
          button('PHONE_NUMBER', { text: 'Call us', countryCode: '+1', phoneNumber: '555-123 4567' }),
          button('COPY_CODE', { example: 'SAVE10' }),
        ],
      }),
    );
    expect(built).toEqual(sharedTemplate('positional variables, every button type and a footer'));
    expect(checkTemplate(built, null)).toBeNull();
  });

  it('builds named variables as the shared valid case', () => {
    const built = buildTemplate(
      draft({
        parameterFormat: 'NAMED',
        headerType: 'TEXT',
        headerText: 'Hi {{name}}',
        headerExample: 'Sam',
        body: 'Order {{order_id}} is ready.',
        bodyExamples: { order_id: '123', stale: 'gone' },
      }),
    );
    expect(built).toEqual(sharedTemplate('named variables'));
  });

  it('sends parameter_format only when the body or a text header has variables, and the category upper-cased', () => {
    expect(buildTemplate(draft({ body: 'Your order is ready.' }))).toEqual(sharedTemplate('a body-only template'));
    expect(buildTemplate(draft({ category: 'MARKETING', body: 'Hi', headerType: 'IMAGE', headerText: 'left {{1}}' }))).not.toHaveProperty('parameter_format');
    expect(buildTemplate(draft({ body: 'Hi', headerType: 'TEXT', headerText: 'Hi {{1}}' }))).toHaveProperty('parameter_format', 'POSITIONAL');
  });

  it('gives a media header a placeholder handle and a location header nothing more', () => {
    const image = buildTemplate(draft({ body: 'Your order is ready.', headerType: 'IMAGE' }));
    expect(image.components).toEqual([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['HEADER_FILE'] } },
      { type: 'BODY', text: 'Your order is ready.' },
    ]);
    expect(checkTemplate(image, { kind: 'png', size: 2048 })).toBeNull();
    expect(checkTemplate(image, null)).toMatchObject({ rule: 'header_file_required' });
    const location = buildTemplate(draft({ body: 'Hi', headerType: 'LOCATION' }));
    expect(location.components).toContainEqual({ type: 'HEADER', format: 'LOCATION' });
  });

  it('adds {{1}} to a dynamic URL left without it, and sends no example for a static one', () => {
    const [dynamic, plain] = (
      buildTemplate(
        draft({
          body: 'Hi',
          buttons: [
            button('URL', { text: 'Visit', urlType: 'dynamic', url: 'https://example.com/p/', example: '42' }),
            button('URL', { text: 'Home', url: 'https://example.com', example: 'leftover' }),
          ],
        }),
      ).components as { buttons?: unknown[] }[]
    ).at(-1)!.buttons!;
    expect(dynamic).toEqual({ type: 'URL', text: 'Visit', url: 'https://example.com/p/{{1}}', example: ['42'] });
    expect(plain).toEqual({ type: 'URL', text: 'Home', url: 'https://example.com' });
  });

  it('leaves the phone number empty unless both the country code and the number are given', () => {
    const phoneOf = (patch: Partial<DraftButton>) => {
      const built = buildTemplate(draft({ body: 'Hi', buttons: [button('PHONE_NUMBER', { text: 'Call', ...patch })] }));
      return { built, phone: ((built.components as { buttons?: { phone_number?: string }[] }[]).at(-1)!.buttons ?? [])[0]?.phone_number };
    };
    expect(phoneOf({ countryCode: '+20', phoneNumber: '100 123-4567' }).phone).toBe('+201001234567');
    const missing = phoneOf({ phoneNumber: '1001234567' });
    expect(missing.phone).toBe('');
    expect(checkTemplate(missing.built, null)).toEqual({ rule: 'phone_required', key: 'templateForm.rules.phoneRequired', values: { n: 1 } });
  });

  it('numbers positional body examples by variable, leaving gaps empty', () => {
    const built = buildTemplate(draft({ body: '{{3}} then {{1}}', bodyExamples: { '1': 'a', '3': 'c' } }));
    expect(built.components).toContainEqual({ type: 'BODY', text: '{{3}} then {{1}}', example: { body_text: [['a', '', 'c']] } });
  });

  it('puts the template JSON in part template and the header file in part file', async () => {
    const file = new File(['%PDF-1.7'], 'menu.pdf', { type: 'application/pdf' });
    const template = buildTemplate(draft({ body: 'Hi', headerType: 'DOCUMENT' }));
    const form = templateFormData(template, file);
    expect(JSON.parse(form.get('template') as string)).toEqual(template);
    const sent = form.get('file') as File;
    expect(sent.name).toBe('menu.pdf');
    expect(await sent.text()).toBe('%PDF-1.7');
    expect([...templateFormData(template, null).keys()]).toEqual(['template']);
  });
});
