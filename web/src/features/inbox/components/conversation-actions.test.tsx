import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Conversation } from '../../../lib/api/types';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import { ConversationActions } from './conversation-actions';

const conversation = (extra: Partial<Conversation> = {}): Conversation => ({
  phone_number: '15550001',
  name: 'Ana',
  conversation_id: 'pn_15550001',
  last_message_content: null,
  last_message_timestamp: null,
  last_incoming_timestamp: null,
  unread_count: 0,
  status: 'open',
  snoozed_until: null,
  assignee: null,
  ...extra,
});

function renderActions(row: Conversation, routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer(routes);
  const onChanged = vi.fn<(row: Conversation) => void>();
  const toast = vi.fn<ShowToast>();
  renderWithApp(<ConversationActions conversation={row} onChanged={onChanged} />, toast);
  return { ...server, onChanged, toast };
}

const sent = (requests: RecordedRequest[], method: string, path: string) => requests.filter((r) => r.method === method && r.path === path).map((r) => r.body);
const ASSIGNMENT = '/api/conversation/15550001/assignment';
const STATUS = '/api/conversation/15550001/status';

describe('conversation actions', () => {
  it('let an agent take an unassigned conversation', async () => {
    signInAs('u1', 'agent');
    const taken = conversation({ assignee: { id: 'u1', name: 'Me Agent' } });
    const { requests, onChanged } = renderActions(conversation(), { [`PATCH ${ASSIGNMENT}`]: () => json(taken) });
    expect(screen.queryByRole('combobox', { name: 'Assignee' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(taken));
    expect(sent(requests, 'PATCH', ASSIGNMENT)).toEqual([{ assignee_id: 'u1', claim: true }]);
  });

  it('address a username customer (no phone) by their key, and keep that key on the answer', async () => {
    signInAs('u1', 'agent');
    const sheena = conversation({ phone_number: null, user_id: 'US.134', username: '@sheena', conversation_id: 'pn_US.134' });
    const path = '/api/conversation/US.134/assignment';
    const { requests, onChanged } = renderActions(sheena, {
      [`PATCH ${path}`]: () => json({ ...sheena, assignee: { id: 'u1', name: 'Me Agent' } }),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith({ ...sheena, assignee: { id: 'u1', name: 'Me Agent' } }));
    expect(sent(requests, 'PATCH', path)).toEqual([{ assignee_id: 'u1', claim: true }]);
  });

  it('say who holds it when a teammate claimed it first', async () => {
    signInAs('u1', 'agent');
    const { onChanged, toast } = renderActions(conversation(), {
      [`PATCH ${ASSIGNMENT}`]: () =>
        json({ detail: 'held', message: 'held', code: 'assigned_to_other', assignee: { id: 'u2', name: 'Bo' } }, 409),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Take' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('Bo already holds this conversation.', 'error', 5000));
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('let an agent release a conversation they hold and reopen a resolved one', async () => {
    signInAs('u1', 'agent');
    const { requests } = renderActions(conversation({ status: 'resolved', assignee: { id: 'u1', name: 'Me' } }), {
      [`PATCH ${ASSIGNMENT}`]: () => json(conversation({ status: 'resolved' })),
      [`PATCH ${STATUS}`]: () => json(conversation()),
    });
    expect(screen.queryByRole('button', { name: 'Resolve' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Release' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(sent(requests, 'PATCH', STATUS)).toEqual([{ status: 'open' }]));
    expect(sent(requests, 'PATCH', ASSIGNMENT)).toEqual([{ assignee_id: null }]);
  });

  it('let the owner assign any agent, or nobody', async () => {
    signInAs('owner', 'admin');
    const { requests } = renderActions(conversation(), {
      'GET /identity/users/agents': () => json([{ _id: 'a1', firstName: 'Bo', lastName: 'Agent', username: 'bo', email: 'bo@example.com' }]),
      [`PATCH ${ASSIGNMENT}`]: () => json(conversation({ assignee: { id: 'a1', name: 'Bo Agent' } })),
    });
    const picker = screen.getByRole('combobox', { name: 'Assignee' });
    await screen.findByRole('option', { name: 'Bo Agent' });
    expect(screen.getByRole('option', { name: 'Me' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take' })).not.toBeInTheDocument();
    await userEvent.selectOptions(picker, 'a1');
    await waitFor(() => expect(sent(requests, 'PATCH', ASSIGNMENT)).toEqual([{ assignee_id: 'a1' }]));
  });

  it('resolve, and snooze for an hour or until a chosen time', async () => {
    signInAs('u1', 'agent');
    const { requests } = renderActions(conversation(), { [`PATCH ${STATUS}`]: () => json(conversation({ status: 'snoozed' })) });
    await userEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    const before = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Snooze' }));
    await userEvent.click(screen.getByRole('menuitem', { name: '1 hour' }));
    await userEvent.click(screen.getByRole('button', { name: 'Snooze' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Custom date and time…' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Snooze until' }));
    const until = dialog.getByLabelText('Snooze until');
    await userEvent.clear(until);
    await userEvent.type(until, '2030-05-06T10:30');
    await userEvent.click(dialog.getByRole('button', { name: 'Snooze' }));

    await waitFor(() => expect(sent(requests, 'PATCH', STATUS)).toHaveLength(3));
    const [resolved, hour, custom] = sent(requests, 'PATCH', STATUS) as { status: string; snoozed_until?: string }[];
    expect(resolved).toEqual({ status: 'resolved' });
    expect(hour?.status).toBe('snoozed');
    expect(new Date(hour?.snoozed_until ?? '').getTime() - before).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(custom).toEqual({ status: 'snoozed', snoozed_until: new Date('2030-05-06T10:30').toISOString() });
  });
});
