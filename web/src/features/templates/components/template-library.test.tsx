import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { TemplatePage } from './template-page';

const SALE = {
  id: '11',
  name: 'spring_sale',
  language: 'en_US',
  status: 'PENDING',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Hello {{1}}, 20% off' },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop now', url: 'https://shop.example/{{1}}' }] },
  ],
};
const RECEIPT = { id: '12', name: 'receipt', language: 'ar', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Thanks' }] };

function renderLibrary(templates: unknown[]) {
  let listed = templates;
  const server = fakeServer({
    'GET /api/templates': () => json(listed),
    'DELETE /api/templates/spring_sale': () => {
      listed = listed.filter((t) => (t as { name: string }).name !== 'spring_sale');
      return json({ message: 'Template deleted', name: 'spring_sale' });
    },
  });
  const toast = vi.fn<ShowToast>();
  const realtime = fakeRealtime();
  renderWithApp(
    <MemoryRouter initialEntries={['/template?view=library']}>
      <realtime.Provider value={realtime.value}>
        <TemplatePage />
      </realtime.Provider>
    </MemoryRouter>,
    toast,
  );
  return { ...server, toast, emit: realtime.emit, setListed: (next: unknown[]) => (listed = next) };
}

const card = (name: string) => screen.getByRole('listitem', { name });

describe('template library', () => {
  it('lists every template with its language, category, status and a preview', async () => {
    renderLibrary([SALE, RECEIPT]);
    expect(await screen.findByRole('listitem', { name: 'spring_sale' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Library' })).toHaveAttribute('aria-selected', 'true');
    const sale = within(card('spring_sale'));
    expect(sale.getByText('PENDING')).toBeInTheDocument();
    expect(sale.getByText('en_US')).toBeInTheDocument();
    expect(sale.getByText(/Marketing/)).toBeInTheDocument();
    expect(sale.getByText('Image')).toBeInTheDocument();
    expect(sale.getByText('Hello {{1}}, 20% off')).toBeInTheDocument();
    expect(sale.getByText('Reply STOP to opt out')).toBeInTheDocument();
    expect(sale.getByText(/Shop now/)).toBeInTheDocument();
    expect(within(card('receipt')).getByText('APPROVED')).toBeInTheDocument();
  });

  it('follows the review live, with the rejection reason', async () => {
    const { emit } = renderLibrary([SALE]);
    await screen.findByRole('listitem', { name: 'spring_sale' });
    emit({ event: 'template_status', data: { id: '11', name: 'spring_sale', language: 'en_US', status: 'REJECTED', reason: 'INVALID_FORMAT' } });
    expect(await within(card('spring_sale')).findByText('REJECTED')).toBeInTheDocument();
    expect(within(card('spring_sale')).getByText('Reason: INVALID_FORMAT')).toBeInTheDocument();
  });

  it('shows the rejection reason the list keeps, after a reload', async () => {
    renderLibrary([{ ...SALE, status: 'REJECTED', reason: 'INVALID_FORMAT' }, { ...RECEIPT, reason: null }]);
    expect(await within(await screen.findByRole('listitem', { name: 'spring_sale' })).findByText('Reason: INVALID_FORMAT')).toBeInTheDocument();
    expect(within(card('receipt')).queryByText(/Reason:/)).toBeNull();
  });

  it('syncs from WhatsApp on demand, dropping templates deleted there', async () => {
    const { requests, setListed } = renderLibrary([]);
    expect(await screen.findByText(/No templates yet/)).toBeInTheDocument();
    setListed([RECEIPT]);
    await userEvent.click(screen.getByRole('button', { name: 'Sync from WhatsApp' }));
    expect(await screen.findByRole('listitem', { name: 'receipt' })).toBeInTheDocument();
    setListed([]);
    await userEvent.click(screen.getByRole('button', { name: 'Sync from WhatsApp' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'receipt' })).toBeNull());
    expect(requests.filter((r) => r.path === '/api/templates')).toHaveLength(3);
  });

  it('deletes a template after confirming', async () => {
    const { requests, toast } = renderLibrary([SALE, RECEIPT]);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete spring_sale' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete spring_sale?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'spring_sale' })).toBeNull());
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/api/templates/spring_sale')).toBe(true);
    expect(toast).toHaveBeenCalledWith('Template spring_sale deleted', 'success');
    expect(card('receipt')).toBeInTheDocument();
  });
});
