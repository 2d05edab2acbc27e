import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Label } from '../../../lib/api/types';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { LabelsSection } from './labels-section';

const VIP: Label = { id: 'l1', name: 'VIP', color: '#d93f0b' };

function renderSection(routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer(routes);
  const toast = vi.fn<ShowToast>();
  const realtime = fakeRealtime();
  renderWithApp(
    <realtime.Provider value={realtime.value}>
      <LabelsSection />
    </realtime.Provider>,
    toast,
  );
  return { ...server, toast, realtime };
}

const sent = (requests: RecordedRequest[], method: string, path: string) => requests.filter((r) => r.method === method && r.path === path).map((r) => r.body);

describe('labels section', () => {
  it('creates a label with a name and a colour', async () => {
    let labels: Label[] = [];
    const { requests, toast } = renderSection({
      'GET /api/labels': () => json({ labels }),
      'POST /api/labels': () => {
        labels = [VIP];
        return json(VIP, 201);
      },
    });
    const section = await screen.findByRole('region', { name: 'Labels' });
    expect(within(section).getByText('No labels yet.')).toBeInTheDocument();
    await userEvent.type(within(section).getByLabelText('Label name'), ' VIP ');
    await userEvent.click(within(section).getByRole('button', { name: 'Add label' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Label created.', 'success'));
    expect(sent(requests, 'POST', '/api/labels')).toEqual([{ name: 'VIP', color: '#1d76db' }]);
    expect(await within(section).findByRole('form', { name: 'VIP' })).toBeInTheDocument();
    expect(within(section).getByLabelText('Label name')).toHaveValue('');
  });

  it('renames, recolours and deletes a label, and follows changes made elsewhere', async () => {
    const { requests, toast, realtime } = renderSection({
      'GET /api/labels': () => json({ labels: [VIP] }),
      'PATCH /api/labels/l1': () => json({ ...VIP, name: 'Gold', color: '#0e8a16' }),
      'DELETE /api/labels/l1': () => new Response(null, { status: 204 }),
    });
    const item = await screen.findByRole('form', { name: 'VIP' });
    const name = within(item).getByLabelText('Name of VIP');
    await userEvent.clear(name);
    await userEvent.type(name, 'Gold');
    // A colour picker sets the input's value at once.
    fireEvent.input(within(item).getByLabelText('Colour of VIP'), { target: { value: '#0e8a16' } });
    await userEvent.click(within(item).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Label saved.', 'success'));
    expect(sent(requests, 'PATCH', '/api/labels/l1')).toEqual([{ name: 'Gold', color: '#0e8a16' }]);

    realtime.emit({ event: 'labels_changed', data: { labels: [{ ...VIP, name: 'Platinum' }] } });
    const renamed = await screen.findByRole('form', { name: 'Platinum' });
    // Deleting asks first: cancelled, nothing is sent; confirmed, the label goes.
    await userEvent.click(within(renamed).getByRole('button', { name: 'Delete Platinum' }));
    const asked = await screen.findByRole('dialog', { name: 'Delete label' });
    expect(asked).toHaveTextContent('Delete the label Platinum? It is taken off every conversation that carries it.');
    await userEvent.click(within(asked).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent(requests, 'DELETE', '/api/labels/l1')).toHaveLength(0);
    await userEvent.click(within(renamed).getByRole('button', { name: 'Delete Platinum' }));
    const again = await screen.findByRole('dialog', { name: 'Delete label' });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Label deleted.', 'success'));
    expect(sent(requests, 'DELETE', '/api/labels/l1')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows why the server refused a new label's name under the name, until it changes", async () => {
    const { toast } = renderSection({
      'GET /api/labels': () => json({ labels: [VIP] }),
      'POST /api/labels': () => json({ detail: 'A label named vip already exists', message: 'A label named vip already exists', code: 'conflict' }, 409),
    });
    const form = await screen.findByRole('form', { name: 'Add label' });
    const name = within(form).getByLabelText('Label name');
    await userEvent.type(name, 'vip');
    await userEvent.click(within(form).getByRole('button', { name: 'Add label' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('A label named vip already exists', 'error'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('A label named vip already exists');
    expect(name).toHaveFocus();
    expect(name).toHaveValue('vip');
    await userEvent.type(name, 's');
    expect(name).toHaveAttribute('aria-invalid', 'false');
    expect(within(form).queryByText('A label named vip already exists')).toBeNull();
  });

  it('takes a name of 50 characters as the server counts them, emoji included, and no more', async () => {
    // 30 emoji are 60 UTF-16 units: a limit counted in units would cut the name at 25.
    const fire = '\u{1F525}'.repeat(30);
    const { requests } = renderSection({
      'GET /api/labels': () => json({ labels: [VIP] }),
      'POST /api/labels': () => json({ id: 'l2', name: fire, color: '#1d76db' }, 201),
    });
    const section = await screen.findByRole('region', { name: 'Labels' });
    const name = within(section).getByLabelText('Label name');
    await userEvent.type(name, fire);
    expect(name).toHaveValue(fire);
    await userEvent.click(within(section).getByRole('button', { name: 'Add label' }));
    await waitFor(() => expect(sent(requests, 'POST', '/api/labels')).toEqual([{ name: fire, color: '#1d76db' }]));

    const item = await within(section).findByRole('form', { name: 'VIP' });
    const rename = within(item).getByLabelText('Name of VIP');
    await userEvent.type(rename, 'x'.repeat(60));
    expect([...(rename as HTMLInputElement).value]).toHaveLength(50);
  });
});
