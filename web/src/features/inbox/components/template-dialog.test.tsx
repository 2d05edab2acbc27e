import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { saveSession } from '../../../lib/api/session-store';
import type { Template } from '../../../lib/api/types';
import { UPLOADED_MEDIA_ID } from '../../../lib/templates/send-components';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { TemplateDialog } from './template-dialog';

const approved = (id: string, components: Template['components']): Template => ({
  id,
  name: `t_${id}`,
  language: 'en',
  status: 'APPROVED',
  components,
});

const positional = approved('positional', [
  { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
  { type: 'BODY', text: 'Hi {{1}}, your order ships {{2}}.' },
]);
const named = approved('named', [{ type: 'BODY', text: 'Hi {{first_name}}, code {{code}}' }]);
const media = (format: string) => approved(format.toLowerCase(), [{ type: 'HEADER', format }, { type: 'BODY', text: 'Your file' }]);
const located = approved('location', [{ type: 'HEADER', format: 'LOCATION' }, { type: 'BODY', text: 'Find us here' }]);
const buttons = approved('buttons', [
  { type: 'BODY', text: 'Your offer' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://example.com/t/{{1}}' },
      { type: 'COPY_CODE', text: 'Copy' },
      { type: 'CATALOG', text: 'View catalog' },
    ],
  },
]);
const pending: Template = { ...named, id: 'pending', name: 'draft_one', status: 'PENDING' };
const templates = [positional, named, media('IMAGE'), media('VIDEO'), media('DOCUMENT'), located, buttons, pending];

/** Opens the dialog on a fake server and picks `template`; answers the sent forms and the callbacks. */
async function openWith(template: Template) {
  saveSession({ accessToken: 'access', refreshToken: 'refresh' });
  const forms: FormData[] = [];
  fakeServer({
    'GET /api/templates': () => json(templates),
    'POST /api/send-template': ({ body }) => {
      forms.push(body as FormData);
      return json({ status: 'success' });
    },
  });
  const onClose = vi.fn<() => void>();
  const showToast = vi.fn<ShowToast>();
  renderWithApp(<TemplateDialog phone="15550001111" phoneNumberId="pn1" onClose={onClose} />, showToast);
  await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), template.id);
  const send = async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const form = forms[0];
    if (!form) throw new Error('nothing was sent');
    return { form, components: JSON.parse(String(form.get('components_json'))) as unknown };
  };
  return { send, showToast };
}

const sendButton = () => screen.getByRole('button', { name: 'Send' });

describe('send-template dialog', () => {
  it('lists approved templates only and sends positional header and body values, previewed', async () => {
    const { send, showToast } = await openWith(positional);
    expect(screen.queryByRole('option', { name: /draft_one/ })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Header variable 1' }), 'A-7');
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable 1' }), 'Cora');
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable 2' }), 'today');
    expect(screen.getByRole('complementary', { name: 'Live Preview' })).toHaveTextContent('Order A-7Hi Cora, your order ships today.');

    const { form, components } = await send();
    expect(form.get('template_name')).toBe('t_positional');
    expect(form.get('language_code')).toBe('en');
    expect(form.get('to')).toBe('15550001111');
    expect(form.get('media_file')).toBeNull();
    expect(components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'A-7' }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Cora' }, { type: 'text', text: 'today' }] },
    ]);
    expect(showToast).toHaveBeenCalledWith('Template sent.', 'success', 5000);
  });

  it('sends a variable left empty as a single space, as the sender does; the preview marks it in red', async () => {
    const { send } = await openWith(positional);
    expect(sendButton()).toBeEnabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Header variable 1' }), 'A-7');
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable 2' }), 'today');
    expect(screen.getByRole('complementary', { name: 'Live Preview' })).toHaveTextContent('Order A-7Hi {{1}}, your order ships today.');
    expect(screen.getByTitle('No value yet')).toHaveTextContent('{{1}}');
    expect(screen.getByRole('textbox', { name: 'Body variable 1' })).not.toHaveAttribute('aria-invalid');
    expect(sendButton()).toBeEnabled();
    const { components } = await send();
    expect(components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'A-7' }] },
      { type: 'body', parameters: [{ type: 'text', text: ' ' }, { type: 'text', text: 'today' }] },
    ]);
  });

  it('sends named body values with their parameter names', async () => {
    const { send } = await openWith(named);
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable first_name' }), 'Sam');
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable code' }), 'X1');
    const { components } = await send();
    expect(components).toEqual([
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'first_name', text: 'Sam' },
          { type: 'text', parameter_name: 'code', text: 'X1' },
        ],
      },
    ]);
  });

  it.each([
    ['IMAGE', 'Header image (JPEG or PNG)', new File(['png'], 'photo.png', { type: 'image/png' })],
    ['VIDEO', 'Header video (MP4)', new File(['mp4'], 'clip.mp4', { type: 'video/mp4' })],
    ['DOCUMENT', 'Header document (PDF)', new File(['%PDF'], 'terms.pdf', { type: 'application/pdf' })],
  ])('sends a %s header as the chosen file, named in the header parameter', async (format, label, file) => {
    const { send } = await openWith(media(format));
    expect(sendButton()).toBeDisabled();
    await userEvent.upload(screen.getByLabelText(label), file);
    const { form, components } = await send();
    const kind = format.toLowerCase();
    expect((form.get('media_file') as File).name).toBe(file.name);
    expect(components).toEqual([{ type: 'header', parameters: [{ type: kind, [kind]: { id: UPLOADED_MEDIA_ID } }] }]);
  });

  it('sends a location header once it is placed and named', async () => {
    const { send } = await openWith(located);
    await userEvent.type(screen.getByRole('textbox', { name: 'Latitude' }), '30.0444');
    await userEvent.type(screen.getByRole('textbox', { name: 'Longitude' }), '31.2357');
    expect(sendButton()).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Location name' }), 'Cairo office');
    await userEvent.type(screen.getByRole('textbox', { name: 'Address (optional)' }), 'Tahrir Sq.');
    const { components } = await send();
    expect(components).toEqual([
      {
        type: 'header',
        parameters: [{ type: 'location', location: { latitude: 30.0444, longitude: 31.2357, name: 'Cairo office', address: 'Tahrir Sq.' } }],
      },
    ]);
  });

  it('sends URL, copy-code and catalog buttons; the catalog thumbnail is optional', async () => {
    const { send } = await openWith(buttons);
    await userEvent.type(screen.getByRole('textbox', { name: /Variable of the "Track" button/ }), 'A-7');
    await userEvent.type(screen.getByRole('textbox', { name: 'Coupon code' }), 'SAVE10');
    expect(screen.getByRole('textbox', { name: 'Catalog thumbnail product ID (optional)' })).toHaveValue('');
    const { components } = await send();
    expect(components).toEqual([
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-7' }] },
      { type: 'button', sub_type: 'copy_code', index: '1', parameters: [{ type: 'coupon_code', coupon_code: 'SAVE10' }] },
      { type: 'button', sub_type: 'catalog', index: '2', parameters: [{ type: 'action', action: {} }] },
    ]);
  });

  it('asks before taking over a conversation a teammate holds, then resends with take_over', async () => {
    saveSession({ accessToken: 'access', refreshToken: 'refresh' });
    const forms: FormData[] = [];
    fakeServer({
      'GET /api/templates': () => json(templates),
      'POST /api/send-template': ({ body }) => {
        const form = body as FormData;
        forms.push(form);
        if (form.get('take_over') === 'true') return json({ status: 'success' });
        return json({ detail: 'held', message: 'held', code: 'assigned_to_other', assignee: { id: 'u2', name: 'Bo' } }, 409);
      },
    });
    const onClose = vi.fn<() => void>();
    renderWithApp(<TemplateDialog phone="15550001111" phoneNumberId="pn1" onClose={onClose} />);
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 'named');
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable first_name' }), 'Cora');
    await userEvent.type(screen.getByRole('textbox', { name: 'Body variable code' }), 'X1');
    await userEvent.click(sendButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Assigned to Bo. Take over and send?');
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Take over and send' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(forms.map((form) => form.get('take_over'))).toEqual([null, 'true']);
  });
});
