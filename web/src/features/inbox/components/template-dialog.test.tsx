import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { saveSession } from '../../../lib/api/session-store';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { TemplateDialog } from './template-dialog';

const templates = [
  {
    id: 't1',
    name: 'order_update',
    language: 'en',
    status: 'APPROVED',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order news' },
      { type: 'BODY', text: 'Hi {{1}}, your order ships {{2}}.' },
    ],
  },
  { id: 't2', name: 'draft_one', language: 'en', status: 'PENDING', components: [{ type: 'BODY', text: 'x' }] },
];

describe('send-template dialog', () => {
  it('lists approved templates, previews the variables and sends them', async () => {
    saveSession({ accessToken: 'access', refreshToken: 'refresh' });
    const { requests } = fakeServer({
      'GET /api/templates': () => json(templates),
      'POST /api/send-template': () => json({ status: 'success' }),
    });
    const onClose = vi.fn<() => void>();
    const showToast = vi.fn<ShowToast>();
    renderWithApp(<TemplateDialog phone="15550001111" phoneNumberId="pn1" onClose={onClose} />, showToast);

    const select = await screen.findByRole('combobox', { name: 'Template' });
    expect(screen.queryByRole('option', { name: /draft_one/ })).toBeNull();
    await userEvent.selectOptions(select, 't1');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByRole('textbox', { name: 'Variable 1' }), 'Cora');
    await userEvent.type(screen.getByRole('textbox', { name: 'Variable 2' }), 'today');
    expect(screen.getByRole('region', { name: 'Preview' })).toHaveTextContent('Order newsHi Cora, your order ships today.');
    await userEvent.click(send);

    const sent = requests.find((request) => request.path === '/api/send-template');
    const form = sent?.body as FormData;
    expect(form.get('template_name')).toBe('order_update');
    expect(form.get('language_code')).toBe('en');
    expect(form.get('to')).toBe('15550001111');
    expect(JSON.parse(String(form.get('components_json')))).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Cora' }, { type: 'text', text: 'today' }] },
    ]);
    expect(showToast).toHaveBeenCalledWith('Template sent.', 'success', 5000);
    expect(onClose).toHaveBeenCalled();
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
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 't1');
    await userEvent.type(screen.getByRole('textbox', { name: 'Variable 1' }), 'Cora');
    await userEvent.type(screen.getByRole('textbox', { name: 'Variable 2' }), 'today');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Assigned to Bo. Take over and send?');
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Take over and send' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(forms.map((form) => form.get('take_over'))).toEqual([null, 'true']);
  });
});
