import 'fake-indexeddb/auto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { Conversation, Message } from '../../../lib/api/types';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { signInAs } from '../../../testing/session';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp, testI18n } from '../../../testing/render';
import { InboxPage } from './inbox-page';

// A customer who took a WhatsApp username: Meta withholds the phone, so the key is the BSUID.
const recent = new Date(Date.now() - 60_000).toISOString();
const SHEENA: Conversation = {
  phone_number: null,
  user_id: 'US.134',
  username: '@realsheena',
  name: null,
  conversation_id: 'pn_US.134',
  last_message_content: { text: 'helo' },
  last_message_timestamp: recent,
  last_incoming_timestamp: recent,
  unread_count: 1,
};
const FIRST: Message = { message_id: 'wamid.in1', timestamp: recent, status: 'read', direction: 'incoming', type: 'text', content: { text: 'helo' } };

function renderInbox(users: Conversation[] = [SHEENA], more: { routes?: Parameters<typeof fakeServer>[0]; entry?: string; showToast?: ShowToast } = {}) {
  signInAs('u1', 'admin');
  const server = fakeServer({
    'GET /api/config': () => json({ phoneNumberId: 'pn' }),
    'GET /api/users': () => json({ data: { users, has_more: false, page: 1, total_unread: 1 } }),
    'GET /api/users/counts': () => json({ mine: 0, unassigned: users.length, all: users.length }),
    'GET /api/conversation/US.134': () => json({ messages: [FIRST], has_more_older: false }),
    'GET /api/conversation/16505551234': () => json({ messages: [FIRST], has_more_older: false }),
    'POST /api/conversation/US.134/mark-as-read': () => json({ status: 'success', modified_count: 1 }),
    'POST /api/conversation/16505551234/mark-as-read': () => json({ status: 'success', modified_count: 0 }),
    'POST /api/send-message': () => json({ status: 'success', response: { messages: [{ id: 'wamid.out1' }] } }),
    'POST /api/users/update': () => json({ status: 'success' }),
    ...more.routes,
  });
  const realtime = fakeRealtime();
  renderWithApp(
    <MemoryRouter initialEntries={[more.entry ?? '/whatsapp']}>
      <realtime.Provider value={realtime.value}>
        <InboxPage />
      </realtime.Provider>
    </MemoryRouter>,
    more.showToast,
  );
  return { ...server, emit: realtime.emit };
}

async function openSheena() {
  await userEvent.click(await screen.findByRole('button', { name: '@realsheena' }));
  const pane = screen.getByRole('region', { name: '@realsheena' });
  await within(pane).findByText('helo');
  return pane;
}

const fieldsOf = (request: RecordedRequest | undefined) => Object.fromEntries((request?.body as FormData | undefined)?.entries() ?? []);

describe('inbox with a username customer', () => {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(760);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  });

  it('shows the username where the phone would be, and replies to the BSUID', async () => {
    const { requests } = renderInbox();
    const row = await screen.findByRole('button', { name: '@realsheena' });
    expect(row).not.toHaveTextContent('null');
    const pane = await openSheena();
    expect(within(pane).getByRole('heading', { name: '@realsheena' })).toBeInTheDocument();

    await userEvent.type(within(pane).getByRole('textbox', { name: 'Type a message' }), 'Thanks!{Enter}');
    await waitFor(() => expect(requests.some((request) => request.path === '/api/send-message')).toBe(true));
    expect(fieldsOf(requests.find((request) => request.path === '/api/send-message'))).toMatchObject({ to: 'US.134', text: 'Thanks!' });
  });

  it('replaces an edited, then deleted message in the open conversation and the list', async () => {
    const { emit } = renderInbox();
    const pane = await openSheena();
    const data = { conversation_id: 'pn_US.134', phone_number: null };
    emit({ event: 'message_updated', data: { ...data, message: { ...FIRST, content: { text: 'hello' }, edited_at: new Date().toISOString() } } });
    expect(await within(pane).findByText('hello')).toBeInTheDocument();
    expect(within(pane).getByText('Edited')).toBeInTheDocument();

    emit({ event: 'message_updated', data: { ...data, message: { ...FIRST, content: { text: undefined, revoked: true }, revoked_at: new Date().toISOString() } } });
    expect(await within(pane).findByText('This message was deleted')).toBeInTheDocument();
    expect(within(pane).queryByText('hello')).toBeNull();
    expect(within(screen.getByRole('button', { name: '@realsheena' })).getByText('This message was deleted')).toBeInTheDocument();
  });

  it('edits only the name of a customer without a phone', async () => {
    const { requests } = renderInbox();
    const pane = await openSheena();
    await userEvent.click(within(pane).getByRole('button', { name: 'Contact options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit contact' });
    expect(within(dialog).queryByRole('textbox', { name: 'Phone number' })).toBeNull();
    expect(within(dialog).getByText('@realsheena')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Sheena Nelson');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((request) => request.path === '/api/users/update')).toBe(true));
    expect(requests.find((request) => request.path === '/api/users/update')?.body).toEqual({ name: 'Sheena Nelson', phone_number: 'US.134' });
  });

  it('follows a teammate resolving the username customer: off the open list, still open in the pane', async () => {
    // Another customer without a phone: only the key tells the two apart.
    const cora = { ...SHEENA, user_id: 'US.77', username: '@cora', conversation_id: 'pn_US.77' };
    const { emit } = renderInbox([cora, SHEENA]);
    const pane = await openSheena();
    expect(within(pane).getByRole('button', { name: 'Resolve' })).toBeInTheDocument();
    const bo = { id: 'u2', name: 'Bo' };
    emit({
      event: 'conversation_updated',
      data: { conversation_id: 'pn_US.134', phone_number: null, status: 'resolved', snoozed_until: null, assignee: bo, by: bo },
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: '@realsheena' })).toBeNull());
    expect(screen.getByRole('button', { name: '@cora' })).toBeInTheDocument();
    expect(within(pane).getByRole('button', { name: 'Reopen' })).toBeInTheDocument();
  });

  it('closes the open conversation and drops its row when a teammate deletes it, and keeps the others', async () => {
    const cora = { ...SHEENA, user_id: 'US.77', username: '@cora', conversation_id: 'pn_US.77' };
    const showToast = vi.fn<ShowToast>();
    const { emit } = renderInbox([cora, SHEENA], { showToast });
    const pane = await openSheena();
    emit({ event: 'contact_deleted', data: { conversation_id: 'pn_US.134', phone_number: 'US.134', total_unread: 1 } });
    await waitFor(() => expect(pane).not.toBeInTheDocument());
    expect(showToast).toHaveBeenCalledWith('This conversation was deleted', 'info', expect.any(Number));
    expect(screen.queryByRole('button', { name: '@realsheena' })).toBeNull();
    expect(screen.getByRole('button', { name: '@cora' })).toBeInTheDocument();
  });

  it('says only its own "Contact deleted" in the tab that deleted, though the live event comes first', async () => {
    const cora = { ...SHEENA, user_id: 'US.77', username: '@cora', conversation_id: 'pn_US.77' };
    const showToast = vi.fn<ShowToast>();
    const gone = { event: 'contact_deleted', data: { conversation_id: 'pn_US.77', phone_number: 'US.77', total_unread: 0 } } as const;
    let emitLive = (): void => undefined;
    const { emit } = renderInbox([cora, SHEENA], {
      showToast,
      routes: {
        'GET /api/conversation/US.77': () => json({ messages: [FIRST], has_more_older: false }),
        'POST /api/conversation/US.77/mark-as-read': () => json({ status: 'success', modified_count: 0 }),
        // The server announces the deletion to every session before it answers.
        'DELETE /api/contacts/delete/US.77': () => {
          emitLive();
          return json({ status: 'success' });
        },
      },
    });
    emitLive = () => void emit(gone);
    await userEvent.click(await screen.findByRole('button', { name: '@cora' }));
    const pane = screen.getByRole('region', { name: '@cora' });
    await userEvent.click(within(pane).getByRole('button', { name: 'Contact options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete contact' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('Contact deleted.', 'success', expect.any(Number)));
    expect(pane).not.toBeInTheDocument();
    expect(showToast).not.toHaveBeenCalledWith('This conversation was deleted', expect.anything(), expect.anything());
  });

  it('offers to open the conversation a teammate mentioned the user in, at the note', async () => {
    const cora = { ...SHEENA, user_id: 'US.77', username: '@cora', conversation_id: 'pn_US.77' };
    const note: Message = { message_id: 'note-1', timestamp: recent, status: 'sent', direction: 'internal', type: 'note', content: { text: '@u1 look' } };
    const showToast = vi.fn<ShowToast>();
    const scrolled = vi.fn<Element['scrollIntoView']>();
    // jsdom does not lay out, so it has no scrollIntoView of its own (the note is scrolled to).
    Element.prototype.scrollIntoView = scrolled;
    onTestFinished(() => void Reflect.deleteProperty(Element.prototype, 'scrollIntoView'));
    const { emit } = renderInbox([cora, SHEENA], {
      showToast,
      routes: { 'GET /api/conversation/US.134': () => json({ messages: [FIRST, note], has_more_older: false }) },
    });
    await screen.findByRole('button', { name: '@cora' });
    expect(screen.queryByRole('region', { name: '@realsheena' })).toBeNull();
    emit({ event: 'mention', data: { conversation_id: 'pn_US.134', note, by: { id: 'u2', name: 'Kim Agent' } } });
    expect(showToast).toHaveBeenCalledWith('Kim Agent mentioned you in a note', 'info', expect.any(Number), expect.objectContaining({ label: 'Open conversation' }));
    const action = showToast.mock.calls[0]?.[3];
    act(() => action?.run());
    const pane = await screen.findByRole('region', { name: '@realsheena' });
    const bubble = await within(pane).findByRole('article', { name: /^Note by/ });
    expect(bubble).toHaveTextContent('@u1 look');
    await waitFor(() => expect(scrolled.mock.contexts).toContain(bubble));
  });

  it('renames the open conversation off the list from a renamed new_contact for its phone, and not from another', async () => {
    const ada: Conversation = { ...SHEENA, phone_number: '16505551234', user_id: null, username: null, name: 'Ada', conversation_id: 'pn_16505551234' };
    const { emit } = renderInbox([ada]);
    await userEvent.click(await screen.findByRole('button', { name: 'Ada' }));
    const pane = screen.getByRole('region', { name: 'Ada' });
    // A teammate resolves it: the row leaves the open list, the conversation stays open.
    const bo = { id: 'u2', name: 'Bo' };
    emit({
      event: 'conversation_updated',
      data: { conversation_id: 'pn_16505551234', phone_number: '16505551234', status: 'resolved', snoozed_until: null, assignee: bo, by: bo },
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ada' })).toBeNull());

    const renamed = (phone: string, name: string) =>
      ({ event: 'new_contact', data: { phone_number: phone, name, conversation_id: `pn_${phone}`, renamed: true } }) as const;
    emit(renamed('16505551234', 'Ada Lovelace'));
    expect(within(pane).getByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(pane).toHaveAccessibleName('Ada Lovelace');

    emit(renamed('4915112345678', 'Bea'));
    expect(within(pane).getByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.queryByText('Bea')).toBeNull();
  });

  it('gives the open conversation off the list the name saved in the edit dialog, and keeps its messages and status', async () => {
    const ada: Conversation = { ...SHEENA, phone_number: '16505551234', user_id: null, username: null, name: 'Ada', conversation_id: 'pn_16505551234' };
    const openList = [ada];
    const { emit, requests } = renderInbox(openList);
    await userEvent.click(await screen.findByRole('button', { name: 'Ada' }));
    const pane = screen.getByRole('region', { name: 'Ada' });
    await within(pane).findByText('helo');
    // A teammate resolves it: it leaves the open list, on the server too, and stays open here.
    openList.pop();
    const bo = { id: 'u2', name: 'Bo' };
    emit({
      event: 'conversation_updated',
      data: { conversation_id: 'pn_16505551234', phone_number: '16505551234', status: 'resolved', snoozed_until: null, assignee: bo, by: bo },
    });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Ada' })).toBeNull());

    await userEvent.click(within(pane).getByRole('button', { name: 'Contact options' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Edit contact' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit contact' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Ada Lovelace');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The list is read again after the save; the conversation is still not in it.
    await waitFor(() => expect(requests.filter((request) => request.path.startsWith('/api/users?page=1&'))).toHaveLength(2));
    expect(await screen.findByText('No conversations yet')).toBeInTheDocument();

    expect(within(pane).getByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(pane).toHaveAccessibleName('Ada Lovelace');
    expect(within(pane).getByText('helo')).toBeInTheDocument();
    expect(within(pane).getByRole('button', { name: 'Reopen' })).toBeInTheDocument();
  });

  it('merges the username row into the phone once it is known, and the open conversation follows', async () => {
    const { emit, requests } = renderInbox();
    await openSheena();
    emit({
      event: 'new_contact',
      data: { phone_number: '16505551234', user_id: 'US.134', username: '@realsheena', name: 'Sheena', conversation_id: 'pn_16505551234', previous_phone_number: 'US.134' },
    });
    const pane = await screen.findByRole('region', { name: 'Sheena' });
    expect(within(pane).getByText('16505551234')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    await waitFor(() => expect(requests.some((request) => request.path.startsWith('/api/conversation/16505551234?'))).toBe(true));
  });

  it('asks for the first page of the list once, even when the profile language is applied meanwhile', async () => {
    const { requests } = renderInbox();
    // The session check applies the profile's language after sign-in, which gives a new `t`.
    await act(() => testI18n.changeLanguage('en'));
    await screen.findByRole('button', { name: '@realsheena' });
    const firstPages = requests.filter((request) => request.path.startsWith('/api/users?page=1&'));
    expect(firstPages).toHaveLength(1);
  });

  it('searches the first 12 words of a longer query, and says so', async () => {
    const { requests } = renderInbox([SHEENA], { routes: { 'GET /api/search': () => json({ results: [], next_cursor: null }) } });
    const words = Array.from({ length: 14 }, (_, i) => `w${i + 1}`);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search name or number' }), words.join(' '));
    expect(await screen.findByText('Only the first 12 words are searched.')).toBeInTheDocument();
    const first12 = words.slice(0, 12).join(' ');
    await waitFor(() => expect(requests.some((request) => request.path.startsWith('/api/search?'))).toBe(true));
    const asked = requests.filter((request) => request.path.includes('search_query=') || request.path.startsWith('/api/search?'));
    const searched = asked.map((request) => new URLSearchParams(request.path.split('?')[1]));
    expect(searched.map((params) => params.get('search_query') ?? params.get('q'))).toContain(first12);
    expect(searched.every((params) => (params.get('search_query') ?? params.get('q') ?? '').split(' ').length <= 12)).toBe(true);
  });
});

describe('inbox with a conversation its list does not hold', () => {
  const ZED: Conversation = {
    phone_number: '15550009999',
    user_id: null,
    username: null,
    name: 'Zed Zimmer',
    conversation_id: 'pn_15550009999',
    last_message_content: { text: 'helo' },
    last_message_timestamp: recent,
    last_incoming_timestamp: recent,
    unread_count: 0,
    status: 'snoozed',
    snoozed_until: new Date(Date.now() + 86_400_000).toISOString(),
    assignee: { id: 'u2', name: 'Bo' },
    labels: [{ id: 'l1', name: 'VIP', color: '#fbca04' }],
  };
  /** Zed's history, whose newest page names the row (absent from the open list). */
  const zedRoutes = (row: Conversation) => ({
    'GET /api/conversation/15550009999': () => json({ messages: [FIRST], has_more_older: false, conversation_id: row.conversation_id, conversation: row }),
    'POST /api/conversation/15550009999/mark-as-read': () => json({ status: 'success', modified_count: 0 }),
  });

  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(760);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
  });

  it('shows the name, holder, snooze and labels of a linked conversation from its history, and follows live changes', async () => {
    const { emit } = renderInbox([SHEENA], { routes: zedRoutes(ZED), entry: '/whatsapp?conversation_id=pn_15550009999' });
    const pane = await screen.findByRole('region', { name: 'Zed Zimmer' });
    // Opening it marked it read: the server's notification says so, with no status or labels.
    emit({ event: 'notification', data: { conversation_id: 'pn_15550009999', phone_number: '15550009999', name: 'Zed Zimmer', unread_count: 0, total_unread: 1 } });
    expect(within(pane).getByRole('heading', { name: 'Zed Zimmer' })).toBeInTheDocument();
    expect(within(pane).getByText(/^Snoozed until/)).toBeInTheDocument();
    expect(within(within(pane).getByRole('list', { name: 'Labels' })).getByText('VIP')).toBeInTheDocument();
    expect(within(pane).getByRole('combobox', { name: 'Assignee' })).toHaveValue('u2');

    const bo = { id: 'u2', name: 'Bo' };
    emit({
      event: 'conversation_updated',
      data: { conversation_id: 'pn_15550009999', phone_number: '15550009999', status: 'resolved', snoozed_until: null, assignee: null, labels: [], by: bo },
    });
    expect(await within(pane).findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    expect(within(pane).queryByText(/^Snoozed until/)).toBeNull();
    expect(within(pane).queryByRole('list', { name: 'Labels' })).toBeNull();
    expect(within(pane).getByRole('combobox', { name: 'Assignee' })).toHaveValue('');
  });

  it('opens a link naming a BSUID since joined to a phone as the phone\'s conversation: header, selected row and live events', async () => {
    // WhatsApp joined Sheena's BSUID to her phone: the server answers the BSUID with the phone's row.
    const joined: Conversation = { ...ZED, phone_number: '16505551234', user_id: 'US.134', username: '@realsheena', name: 'Sheena Nelson', conversation_id: 'pn_16505551234' };
    const history = () => json({ messages: [FIRST], has_more_older: false, conversation_id: joined.conversation_id, conversation: joined });
    const routes = { 'GET /api/conversation/US.134': history, 'GET /api/conversation/16505551234': history };
    const { emit } = renderInbox([{ ...joined, status: 'open', snoozed_until: null }], { routes, entry: '/whatsapp?conversation_id=pn_US.134' });
    const pane = await screen.findByRole('region', { name: 'Sheena Nelson' });
    expect(within(pane).getByRole('heading', { name: 'Sheena Nelson' })).toBeInTheDocument();
    expect(within(within(pane).getByRole('list', { name: 'Labels' })).getByText('VIP')).toBeInTheDocument();
    expect(within(pane).getByRole('combobox', { name: 'Assignee' })).toHaveValue('u2');
    expect(await screen.findByRole('button', { name: 'Sheena Nelson' })).toHaveAttribute('aria-current', 'true');
    await within(pane).findByText('helo');

    const reply: Message = { ...FIRST, message_id: 'wamid.in2', timestamp: new Date().toISOString(), content: { text: 'still there?' } };
    emit({ event: 'new_message', data: { conversation_id: 'pn_16505551234', phone_number: '16505551234', name: 'Sheena Nelson', message: reply } });
    expect(await within(pane).findByText('still there?')).toBeInTheDocument();
    emit({
      event: 'conversation_updated',
      data: { conversation_id: 'pn_16505551234', phone_number: '16505551234', status: 'resolved', snoozed_until: null, assignee: null, labels: [], by: { id: 'u2', name: 'Bo' } },
    });
    expect(await within(pane).findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
  });

  it('shows a resolved conversation opened from a message hit as resolved, with its labels', async () => {
    const resolved = { ...ZED, status: 'resolved' as const, snoozed_until: null };
    const hit = { conversation_id: 'pn_15550009999', phone_number: '15550009999', name: 'Zed Zimmer', message_id: 'wamid.in1', timestamp: recent, snippet: '<mark>helo</mark>' };
    // jsdom does not lay out, so it has no scrollIntoView of its own (the hit is scrolled to).
    Element.prototype.scrollIntoView = vi.fn<Element['scrollIntoView']>();
    onTestFinished(() => void Reflect.deleteProperty(Element.prototype, 'scrollIntoView'));
    renderInbox([SHEENA], { routes: { ...zedRoutes(resolved), 'GET /api/search': () => json({ results: [hit], next_cursor: null }) } });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search name or number' }), 'helo');
    const results = await screen.findByRole('region', { name: 'Messages' });
    await userEvent.click(await within(results).findByRole('button', { name: /Zed Zimmer/ }));
    const pane = await screen.findByRole('region', { name: 'Zed Zimmer' });
    expect(await within(pane).findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    expect(within(within(pane).getByRole('list', { name: 'Labels' })).getByText('VIP')).toBeInTheDocument();
  });
});
