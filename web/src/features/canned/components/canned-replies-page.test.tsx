import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { CannedReply } from '../../../lib/api/canned-replies';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { CannedRepliesPage } from './canned-replies-page';

const HOURS: CannedReply = { id: 'c1', shortcut: 'hours', text: 'We open at 9.', updated_at: '', media: null };

function renderPage(role: string, routes: Parameters<typeof fakeServer>[0]) {
  localStorage.setItem('userRole', role);
  const server = fakeServer(routes);
  renderWithApp(
    <MemoryRouter>
      <CannedRepliesPage />
    </MemoryRouter>,
  );
  return server;
}

describe('canned replies page', () => {
  afterEach(() => localStorage.clear());

  it('checks the form before sending it and shows a taken shortcut under its field', async () => {
    let list: CannedReply[] = [];
    const server = renderPage('admin', {
      'GET /api/canned-replies': () => json({ canned_replies: list }),
      'POST /api/canned-replies': ({ body }) => {
        const form = body as FormData;
        const fields = { shortcut: String(form.get('shortcut')), text: String(form.get('text')) };
        if (fields.shortcut === 'hours') return json({ detail: 'taken', message: 'taken', code: 'shortcut_taken' }, 409);
        list = [{ id: 'c2', updated_at: '', media: null, ...fields }];
        return json(list[0], 201);
      },
    });
    await screen.findByText('No canned replies yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add canned reply' }));
    await userEvent.type(screen.getByLabelText('Shortcut'), 'two words');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('The shortcut must be one word, without spaces.')).toBeInTheDocument();
    expect(screen.getByText('Enter the text.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('Shortcut'));
    await userEvent.type(screen.getByLabelText('Shortcut'), '/hours');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Leave out the /: it is typed before the shortcut in a conversation.')).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await userEvent.clear(screen.getByLabelText('Shortcut'));
    await userEvent.type(screen.getByLabelText('Shortcut'), 'hours');
    await userEvent.type(screen.getByLabelText('Text'), 'Hi {{{{name}}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another canned reply already uses this shortcut.')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Shortcut'));
    await userEvent.type(screen.getByLabelText('Shortcut'), 'hi');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const entry = await screen.findByRole('heading', { name: '/hi' });
    expect(within(entry.parentElement as HTMLElement).getByText('Hi {{name}}')).toBeInTheDocument();
  });

  it('sends a chosen file with the form, previews it, and drops the stored one on remove', async () => {
    const png = new File(['\x89PNG'], 'menu.png', { type: 'image/png' });
    const stored = { id: 'm1', mime_type: 'image/png', filename: 'menu.png', size: 4 };
    let list: CannedReply[] = [];
    const server = renderPage('admin', {
      'GET /api/canned-replies': () => json({ canned_replies: list }),
      'GET /api/media/m1': () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } }),
      'POST /api/canned-replies': () => {
        list = [{ id: 'c3', shortcut: 'menu', text: 'Our menu', updated_at: '', media: stored }];
        return json(list[0], 201);
      },
      'PATCH /api/canned-replies/c3': () => {
        list = [{ ...list[0]!, media: null }];
        return json(list[0]);
      },
    });
    await screen.findByText('No canned replies yet.');
    await userEvent.click(screen.getByRole('button', { name: 'Add canned reply' }));
    // The opened form's first field takes the focus, so typing starts there.
    expect(screen.getByLabelText('Shortcut')).toHaveFocus();
    await userEvent.type(screen.getByLabelText('Shortcut'), 'menu');
    await userEvent.type(screen.getByLabelText('Text'), 'Our menu');
    await userEvent.upload(screen.getByLabelText('Attach media'), png);
    expect(screen.getByRole('figure', { name: 'Media preview' })).toHaveTextContent('menu.png');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Image: menu.png')).toBeInTheDocument();
    const sent = server.requests.find((r) => r.method === 'POST')?.body as FormData;
    expect(sent.get('file')).toBeInstanceOf(File);
    expect((sent.get('file') as File).name).toBe('menu.png');

    await userEvent.click(screen.getByRole('button', { name: 'Edit /menu' }));
    expect(screen.getByLabelText('Shortcut')).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Remove media' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByText('Image: menu.png')).not.toBeInTheDocument());
    const edit = server.requests.find((r) => r.method === 'PATCH')?.body as FormData;
    expect(edit.get('remove_media')).toBe('true');
    expect(edit.get('file')).toBeNull();
  });

  it('shows an agent the list without the owner controls', async () => {
    renderPage('agent', { 'GET /api/canned-replies': () => json({ canned_replies: [HOURS] }) });
    await screen.findByRole('heading', { name: '/hours' });
    expect(screen.getByText('Only the account owner can add or change canned replies.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add canned reply' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit /hours' })).not.toBeInTheDocument();
  });
});
