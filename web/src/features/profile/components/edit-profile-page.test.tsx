import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { renderWithApp } from '../../../testing/render';
import { AGENT_BO, OWNER_PROFILE } from '../test-fixtures';
import { EditProfilePage } from './edit-profile-page';

vi.mock('../../../lib/i18n/i18n', () => ({ setLanguage: vi.fn<() => Promise<void>>(async () => undefined) }));

const CY = { _id: 'a2', firstName: 'Cy', lastName: 'Agent', username: 'cy', email: 'cy@example.com' };

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderPage(routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer(routes);
  const toast = vi.fn<ShowToast>();
  renderWithApp(
    <MemoryRouter initialEntries={['/edit-profile']}>
      <Routes>
        <Route path="/edit-profile" element={<EditProfilePage />} />
        <Route path="*" element={<Where />} />
      </Routes>
    </MemoryRouter>,
    toast,
  );
  return { ...server, toast };
}

const body = (requests: RecordedRequest[], method: string, path: string) => requests.find((r) => r.method === method && r.path === path)?.body;

describe('edit profile page', () => {
  it('saves the profile, toasts, and goes to /dashboard after 2 seconds', async () => {
    const { requests, toast } = renderPage({
      'GET /identity/users/profile': () => json(OWNER_PROFILE),
      'GET /identity/users/agents': () => json([]),
      'PATCH /identity/users/profile': () => json({ ...OWNER_PROFILE, firstName: 'Ada M' }),
    });
    const section = await screen.findByRole('region', { name: 'Your profile' });
    const first = within(section).getByLabelText('First name');
    expect(within(section).getByText('An app secret is set. Leave the field blank to keep it.')).toBeInTheDocument();
    await userEvent.clear(first);
    await userEvent.type(first, 'Ada M');
    await userEvent.type(within(section).getByLabelText('App secret'), 'new-secret');
    await userEvent.click(within(section).getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Profile updated successfully.', 'success'));
    expect(body(requests, 'PATCH', '/identity/users/profile')).toMatchObject({ firstName: 'Ada M', appSecret: 'new-secret', phoneNumberId: '1065' });
    expect(screen.queryByTestId('where')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/dashboard'), { timeout: 3000 });
  });

  it("shows the server's detail when the save is refused, else updateFailed", async () => {
    const { toast } = renderPage({
      'GET /identity/users/profile': () => json(OWNER_PROFILE),
      'GET /identity/users/agents': () => json([]),
      'PATCH /identity/users/profile': () =>
        json({ detail: 'This phoneNumberId is already used by another business', message: 'x', code: 'phone_number_id_taken', field: 'phoneNumberId' }, 409),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('This phoneNumberId is already used by another business', 'error'));
    expect(screen.queryByTestId('where')).toBeNull();
  });

  it('says failedToLoadData when the profile cannot be loaded', async () => {
    renderPage({ 'GET /identity/users/profile': () => json({}, 500), 'GET /identity/users/agents': () => json([]) });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load data.');
  });

  it('creates an agent with an email input, edits one keeping its password, deletes one after confirming', async () => {
    let agents = [AGENT_BO, CY];
    const { requests, toast } = renderPage({
      'GET /identity/users/profile': () => json(OWNER_PROFILE),
      'GET /identity/users/agents': () => json(agents),
      'POST /identity/users/agents': (request) => {
        const created = { ...(request.body as typeof AGENT_BO), _id: 'a3' };
        agents = [...agents, created];
        return json(created, 201);
      },
      'PATCH /identity/users/agents/a1': () => json(AGENT_BO),
      'DELETE /identity/users/agents/a2': () => {
        agents = agents.filter((agent) => agent._id !== 'a2');
        return json({ status: 'success' });
      },
    });
    const form = await screen.findByRole('form', { name: 'Add an agent' });
    expect(within(form).getByLabelText('Email')).toHaveAttribute('type', 'email');
    await userEvent.type(within(form).getByLabelText('First name'), 'Di');
    await userEvent.type(within(form).getByLabelText('Last name'), 'New');
    await userEvent.type(within(form).getByLabelText('Username'), 'di');
    await userEvent.type(within(form).getByLabelText('Email'), 'di@example.com');
    await userEvent.type(within(form).getByLabelText('Password'), 'correct-horse');
    await userEvent.click(within(form).getByRole('button', { name: 'Create agent' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Agent created successfully.', 'success'));
    expect(body(requests, 'POST', '/identity/users/agents')).toEqual({ firstName: 'Di', lastName: 'New', username: 'di', email: 'di@example.com', password: 'correct-horse' });
    await screen.findByRole('listitem', { name: 'Di New' });

    await userEvent.click(screen.getByRole('button', { name: 'Edit Bo Agent' }));
    const edit = screen.getByRole('form', { name: 'Edit agent' });
    expect(within(edit).getByLabelText('First name')).toHaveFocus();
    expect(within(edit).getByLabelText('Password')).toHaveValue('');
    await userEvent.type(within(edit).getByLabelText('First name'), 'b');
    await userEvent.click(within(edit).getByRole('button', { name: 'Update agent' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Agent updated successfully.', 'success'));
    expect(body(requests, 'PATCH', '/identity/users/agents/a1')).toEqual({ firstName: 'Bob', lastName: 'Agent', username: 'bo', email: 'bo@example.com' });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Cy Agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete agent' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Agent deleted successfully.', 'success'));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Cy Agent' })).toBeNull());
  });

  it("prefers the server's message when an agent call fails", async () => {
    const { toast } = renderPage({
      'GET /identity/users/profile': () => json(OWNER_PROFILE),
      'GET /identity/users/agents': () => json([CY]),
      'POST /identity/users/agents': () => json({ detail: 'Email already exists', message: 'Email already exists', code: 'conflict' }, 409),
      'DELETE /identity/users/agents/a2': () => json({}, 500),
    });
    const form = await screen.findByRole('form', { name: 'Add an agent' });
    for (const label of ['First name', 'Last name', 'Username', 'Password']) await userEvent.type(within(form).getByLabelText(label), 'value-long');
    await userEvent.type(within(form).getByLabelText('Email'), 'cy@example.com');
    await userEvent.click(within(form).getByRole('button', { name: 'Create agent' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Email already exists', 'error'));
    // The refusal also stays under the field it is about, which takes the focus, until that field changes.
    const email = within(form).getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Email already exists');
    expect(email).toHaveFocus();
    expect(within(form).getByLabelText('Username')).toHaveAttribute('aria-invalid', 'false');
    await userEvent.type(email, 'm');
    expect(email).not.toHaveAccessibleDescription();
    expect(within(form).queryByText('Email already exists')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Delete Cy Agent' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete agent' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Delete failed.', 'error'));
  });

  it('hides the credentials and the agent controls from an agent', async () => {
    localStorage.setItem('userRole', 'agent');
    const { requests } = renderPage({
      'GET /identity/users/profile': () => json({ _id: 'a1', firstName: 'Bo', lastName: 'Agent', role: 'agent', language: 'en', phoneNumberId: '1065' }),
    });
    await screen.findByLabelText('First name');
    expect(screen.queryByLabelText('Phone number ID')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Agents' })).toBeNull();
    // The page is named as the settings menu names it, not after the agents an agent cannot see.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Edit profile');
    expect(screen.queryByRole('form', { name: 'Add an agent' })).toBeNull();
    expect(requests.some((request) => request.path === '/identity/users/agents')).toBe(false);
    expect(screen.getByRole('link', { name: /Back to the inbox/ })).toHaveAttribute('href', '/dashboard');
  });

  it('lets the owner choose round robin assignment and a claim timeout', async () => {
    const { requests, toast } = renderPage({
      'GET /identity/users/profile': () => json({ ...OWNER_PROFILE, assignment_mode: 'manual', claim_timeout_minutes: 0 }),
      'GET /identity/users/agents': () => json([]),
      'PATCH /identity/users/profile': () => json({ ...OWNER_PROFILE, assignment_mode: 'round_robin', claim_timeout_minutes: 30 }),
    });
    const section = within(await screen.findByRole('region', { name: 'Team assignment' }));
    await userEvent.selectOptions(section.getByRole('combobox', { name: 'New conversations' }), 'round_robin');
    const timeout = section.getByRole('spinbutton', { name: 'Claim timeout in minutes (0 = off)' });
    await userEvent.clear(timeout);
    await userEvent.type(timeout, '20000');
    expect(section.getByRole('button', { name: 'Save assignment settings' })).toBeDisabled();
    await userEvent.clear(timeout);
    await userEvent.type(timeout, '30');
    await userEvent.click(section.getByRole('button', { name: 'Save assignment settings' }));

    await waitFor(() => expect(body(requests, 'PATCH', '/identity/users/profile')).toEqual({ assignment_mode: 'round_robin', claim_timeout_minutes: 30 }));
    expect(toast).toHaveBeenCalledWith('Profile updated successfully.', 'success');
  });

  it('shows an agent no assignment settings', async () => {
    renderPage({ 'GET /identity/users/profile': () => json({ _id: 'a1', firstName: 'Bo', role: 'agent', language: 'en' }) });
    await screen.findByRole('region', { name: 'Your profile' });
    expect(screen.queryByRole('region', { name: 'Team assignment' })).not.toBeInTheDocument();
  });

  it('masks the access token and the verify token like the app secret, until revealed', async () => {
    renderPage({ 'GET /identity/users/profile': () => json(OWNER_PROFILE), 'GET /identity/users/agents': () => json([]) });
    const section = within(await screen.findByRole('region', { name: 'Your profile' }));
    for (const [label, value] of [['Access token', 'EAAG'], ['Webhook verify token', 'verify']] as const) {
      const input = section.getByLabelText(label);
      expect(input).toHaveAttribute('type', 'password');
      expect(input).toHaveValue(value);
      await userEvent.click(section.getByRole('button', { name: `Show ${label}` }));
      expect(input).toHaveAttribute('type', 'text');
      await userEvent.click(section.getByRole('button', { name: `Hide ${label}` }));
      expect(input).toHaveAttribute('type', 'password');
    }
    expect(section.getByLabelText('App secret')).toHaveAttribute('type', 'password');
    expect(section.getByLabelText('App ID')).not.toHaveAttribute('type', 'password');
  });
});
