import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { Conversation, Label } from '../../../lib/api/types';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import { LabelPicker } from './label-picker';

const VIP: Label = { id: 'l1', name: 'VIP', color: '#D93F0B' };
const BILLING: Label = { id: 'l2', name: 'billing', color: '#0E8A16' };
const PATH = '/api/conversation/15550001/labels';

const conversation = (labels: Label[]): Conversation => ({
  phone_number: '15550001',
  name: 'Ana',
  conversation_id: 'pn_15550001',
  last_message_content: null,
  last_message_timestamp: null,
  last_incoming_timestamp: null,
  unread_count: 0,
  labels,
});

function renderPicker(row: Conversation, routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer({ 'GET /api/labels': () => json({ labels: [BILLING, VIP] }), ...routes });
  const onChanged = vi.fn<(row: Conversation) => void>();
  const toast = vi.fn<ShowToast>();
  renderWithApp(
    <MemoryRouter>
      <LabelPicker conversation={row} onChanged={onChanged} />
    </MemoryRouter>,
    toast,
  );
  return { ...server, onChanged, toast };
}

const sent = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'PUT' && r.path === PATH).map((r) => r.body);

describe('label picker', () => {
  it('ticks the labels the conversation carries and saves a tick at once', async () => {
    signInAs('u1', 'agent');
    const answered = conversation([BILLING, VIP]);
    const { requests, onChanged } = renderPicker(conversation([VIP]), { [`PUT ${PATH}`]: () => json(answered) });
    await userEvent.click(screen.getByRole('button', { name: 'Labels' }));
    const list = await screen.findByRole('group', { name: 'Labels of this conversation' });
    expect(await within(list).findByRole('checkbox', { name: 'VIP' })).toBeChecked();
    await userEvent.click(within(list).getByRole('checkbox', { name: 'billing' }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledWith(answered));
    expect(sent(requests)).toEqual([{ labels: ['l1', 'l2'] }]);
  });

  it('unticks a label, and says so when the server refuses', async () => {
    signInAs('u1', 'agent');
    const { requests, onChanged, toast } = renderPicker(conversation([VIP]), {
      [`PUT ${PATH}`]: () => json({ detail: 'No label l1', message: 'No label l1', code: 'not_found' }, 404),
    });
    await userEvent.click(screen.getByRole('button', { name: 'Labels' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'VIP' }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith('No label l1', 'error', expect.any(Number)));
    expect(sent(requests)).toEqual([{ labels: [] }]);
    expect(onChanged).not.toHaveBeenCalled();
  });

  it('sends the owner to the profile page when the business has no labels', async () => {
    signInAs('u1', 'admin');
    renderPicker(conversation([]), { 'GET /api/labels': () => json({ labels: [] }) });
    await userEvent.click(screen.getByRole('button', { name: 'Labels' }));
    expect(await screen.findByRole('link', { name: 'Create labels' })).toHaveAttribute('href', '/edit-profile');
  });

  it('works from the keyboard: Escape from a label closes the list and gives the focus back to the button', async () => {
    signInAs('u1', 'agent');
    renderPicker(conversation([VIP]), {});
    const button = screen.getByRole('button', { name: 'Labels' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const list = await screen.findByRole('group', { name: 'Labels of this conversation' });
    await within(list).findByRole('checkbox', { name: 'VIP' });
    await userEvent.tab();
    expect(within(list).getByRole('checkbox', { name: 'billing' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Labels of this conversation' })).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});
