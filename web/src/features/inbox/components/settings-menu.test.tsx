import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { getRefreshToken } from '../../../lib/api/session-store';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import { SettingsMenu } from './settings-menu';

function renderMenu(showToast = vi.fn<ShowToast>()) {
  renderWithApp(
    <MemoryRouter initialEntries={['/whatsapp']}>
      <Routes>
        <Route path="/whatsapp" element={<SettingsMenu />} />
        <Route path="/login" element={<p>Login page</p>} />
      </Routes>
    </MemoryRouter>,
    showToast,
  );
  return showToast;
}

describe('settings menu: sign out everywhere', () => {
  beforeEach(() => signInAs('u1', 'agent'));

  it('ends every session on the server, then signs this one out', async () => {
    const { requests } = fakeServer({
      'POST /identity/auth/logout-all': () => json({ status: 'success' }),
      'POST /identity/auth/logout': () => json({ status: 'success' }),
    });
    renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out everywhere' }));
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    const everywhere = requests.find((r) => r.path === '/identity/auth/logout-all');
    expect(everywhere?.headers.Authorization).toMatch(/^Bearer /);
    expect(getRefreshToken()).toBeNull();
  });

  it('keeps this session and says so when the server could not end the others', async () => {
    fakeServer({
      'POST /identity/auth/logout-all': () => json({ detail: 'down', message: 'down', code: 'unavailable' }, 503),
    });
    const showToast = renderMenu();
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('Could not sign out the other devices; try again.', 'error', expect.any(Number)));
    expect(getRefreshToken()).toBe('refresh');
    expect(screen.queryByText('Login page')).not.toBeInTheDocument();
  });
});
