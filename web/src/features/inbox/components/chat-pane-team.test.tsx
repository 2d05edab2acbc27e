import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Conversation, Message } from '../../../lib/api/types';
import { db } from '../../../lib/offline/db';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import { ChatPane } from './chat-pane';

const PHONE = '15550001';
const CHANNEL = `pn_${PHONE}`;
const BO = { id: 'u2', name: 'Bo' };

const conversation: Conversation = {
  phone_number: PHONE,
  name: 'Ana',
  conversation_id: CHANNEL,
  last_message_content: null,
  last_message_timestamp: null,
  last_incoming_timestamp: new Date().toISOString(),
  unread_count: 0,
  status: 'open',
  snoozed_until: null,
  assignee: BO,
};

const entry = (id: string, type: Message['type'], content: Message['content'], extra: Partial<Message> = {}): Message => ({
  message_id: id,
  timestamp: '2026-01-01T10:00:00Z',
  status: 'sent',
  direction: 'internal',
  type,
  content,
  ...extra,
});

const HISTORY: Message[] = [
  entry('m1', 'text', { text: 'Hello there' }, { direction: 'incoming', status: 'read' }),
  entry('a1', 'activity', { activity: { action: 'assigned', by: { id: 'owner', name: 'Ada' }, assignee: BO } }),
  entry('n1', 'note', { text: 'VIP customer', mentions: [] }, { sender_name: 'Ada' }),
  entry('a2', 'activity', { activity: { action: 'unassigned', by: BO, reason: 'claim_timeout' } }),
];

/** A customer known only by username: no phone, the BSUID is the key. */
const BSUID = 'US.13491208655302741918';
const SHEENA: Conversation = { ...conversation, phone_number: null, user_id: BSUID, username: '@sheena', name: null, conversation_id: `pn_${BSUID}` };

function renderPane(routes: Parameters<typeof fakeServer>[0], row: Conversation = conversation, showToast?: ShowToast) {
  const key = row.phone_number ?? row.user_id ?? '';
  const server = fakeServer({
    [`GET /api/conversation/${key}`]: () => json({ messages: HISTORY, has_more_older: false }),
    [`POST /api/conversation/${key}/mark-as-read`]: () => json({ status: 'success', modified_count: 0 }),
    ...routes,
  });
  const realtime = fakeRealtime();
  const view = renderWithApp(
    <realtime.Provider value={realtime.value}>
      <ChatPane
        conversation={row}
        phoneNumberId="pn"
        small={false}
        onBack={() => undefined}
        onRead={() => undefined}
        onContactSaved={() => undefined}
        onContactDeleted={() => undefined}
        onTeamChange={() => undefined}
        onRowRead={() => undefined}
      />
    </realtime.Provider>,
    showToast,
  );
  return { ...server, realtime, view };
}

describe('chat pane for a team', () => {
  beforeEach(async () => {
    signInAs('u1', 'agent');
    await (await db()).clear('pending-messages');
  });

  it('shows activity as lines and notes as note bubbles', async () => {
    renderPane({});
    const log = await screen.findByRole('log', { name: 'Messages' });
    expect(within(log).getByText(/Ada assigned this conversation to Bo/)).toHaveClass('activity-line');
    expect(within(log).getByText(/No reply in time: the conversation is unassigned again/)).toHaveClass('activity-line');
    const note = within(log).getByRole('article', { name: 'Note by Ada' });
    expect(note).toHaveClass('note');
    expect(note).toHaveTextContent('VIP customer');
  });

  it('posts a note to the notes route, never to send-message', async () => {
    const posted = entry('n2', 'note', { text: 'Call her back', mentions: [] }, { sender_name: 'Me', timestamp: new Date().toISOString() });
    const { requests } = renderPane({ [`POST /api/conversation/${PHONE}/notes`]: () => json(posted, 201) });
    await screen.findByRole('log', { name: 'Messages' });
    await userEvent.click(screen.getByRole('radio', { name: 'Note' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Team note, @ to mention' }), 'Call her back{Enter}');
    expect(await screen.findByRole('article', { name: 'Note by Me' })).toHaveTextContent('Call her back');
    expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/notes')).map((r) => r.body)).toEqual([{ text: 'Call her back' }]);
    expect(requests.some((r) => r.path === '/api/send-message')).toBe(false);
  });

  it('asks before taking over a conversation a teammate holds, then sends with take_over', async () => {
    const forms: FormData[] = [];
    renderPane({
      'POST /api/send-message': ({ body }) => {
        const form = body as FormData;
        forms.push(form);
        if (form.get('take_over') !== 'true') {
          return json({ detail: 'Assigned to Bo', message: 'Assigned to Bo', code: 'assigned_to_other', assignee: BO }, 409);
        }
        return json({ status: 'success', response: { messages: [{ id: 'wamid.1' }] } });
      },
    });
    await screen.findByRole('log', { name: 'Messages' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Type a message' }), 'On it{Enter}');

    const dialog = within(await screen.findByRole('dialog', { name: 'Take over' }));
    expect(dialog.getByText('Assigned to Bo. Take over and send?')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Take over and send' }));

    await waitFor(() => expect(forms.map((form) => form.get('take_over'))).toEqual([null, 'true']));
    expect(forms[1]?.get('text')).toBe('On it');
    expect(screen.queryByRole('dialog', { name: 'Take over' })).not.toBeInTheDocument();
  });

  it('gives a note that could not be saved (offline) back to the box', async () => {
    renderPane({
      [`POST /api/conversation/${PHONE}/notes`]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await screen.findByText('VIP customer');
    await userEvent.click(screen.getByRole('radio', { name: 'Note' }));
    const box = screen.getByRole('textbox', { name: 'Team note, @ to mention' });
    await userEvent.type(box, 'Refund approved{Enter}');
    await waitFor(() => expect(box).toHaveValue('Refund approved'));
  });

  it('writes notes and takes over for a username customer by their BSUID key', async () => {
    const posted = entry('n3', 'note', { text: 'Prefers mornings', mentions: [] }, { sender_name: 'Me', timestamp: new Date().toISOString() });
    const forms: FormData[] = [];
    const { requests, realtime } = renderPane(
      {
        [`POST /api/conversation/${BSUID}/notes`]: () => json(posted, 201),
        'POST /api/send-message': ({ body }) => {
          const form = body as FormData;
          forms.push(form);
          if (form.get('take_over') !== 'true') return json({ detail: 'Assigned to Bo', message: 'Assigned to Bo', code: 'assigned_to_other', assignee: BO }, 409);
          return json({ status: 'success', response: { messages: [{ id: 'wamid.2' }] } });
        },
      },
      SHEENA,
    );
    await screen.findByRole('log', { name: 'Messages' });
    expect(realtime.presences).toEqual([{ channel: `pn_${BSUID}`, state: 'viewing' }]);

    await userEvent.click(screen.getByRole('radio', { name: 'Note' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Team note, @ to mention' }), 'Prefers mornings{Enter}');
    expect(await screen.findByRole('article', { name: 'Note by Me' })).toHaveTextContent('Prefers mornings');
    expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/notes')).map((r) => r.path)).toEqual([`/api/conversation/${BSUID}/notes`]);

    await userEvent.click(screen.getByRole('radio', { name: 'Reply' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Type a message' }), 'Good morning{Enter}');
    const dialog = within(await screen.findByRole('dialog', { name: 'Take over' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Take over and send' }));
    await waitFor(() => expect(forms.map((form) => form.get('take_over'))).toEqual([null, 'true']));
    expect(forms.map((form) => form.get('to'))).toEqual([BSUID, BSUID]);
  });

  it('tells teammates it is viewing and typing, shows theirs, and goes idle on leaving', async () => {
    const { realtime, view } = renderPane({});
    await screen.findByRole('log', { name: 'Messages' });
    expect(realtime.presences).toEqual([{ channel: CHANNEL, state: 'viewing' }]);

    await userEvent.type(screen.getByRole('textbox', { name: 'Type a message' }), 'abc');
    // Three keystrokes, one typing frame: the rest fall inside the throttle.
    expect(realtime.presences.filter((frame) => frame.state === 'typing')).toEqual([{ channel: CHANNEL, state: 'typing' }]);

    realtime.emit({ event: 'agent_activity', data: { conversation_id: CHANNEL, user_id: 'u2', name: 'Bo', state: 'typing' } });
    realtime.emit({ event: 'agent_activity', data: { conversation_id: CHANNEL, user_id: 'u3', name: 'Cy', state: 'viewing' } });
    realtime.emit({ event: 'agent_activity', data: { conversation_id: CHANNEL, user_id: 'u1', name: 'Me', state: 'viewing' } });
    const line = screen.getByRole('status', { name: 'Teammates in this conversation' });
    expect(line).toHaveTextContent('Bo is typing…');
    expect(line).toHaveTextContent('Cy is viewing');
    expect(line).not.toHaveTextContent('Me is viewing');

    realtime.emit({ event: 'agent_activity', data: { conversation_id: CHANNEL, user_id: 'u2', name: 'Bo', state: 'idle' } });
    expect(line).not.toHaveTextContent('Bo');

    view.unmount();
    expect(realtime.presences.at(-1)).toEqual({ channel: CHANNEL, state: 'idle' });
  });
});

describe('chat pane after the live stream was reset', () => {
  beforeEach(async () => {
    signInAs('u1', 'agent');
    await (await db()).clear('pending-messages');
  });

  it('keeps a message sent while the re-read was on its way, and adds what the re-read found', async () => {
    let release = () => undefined as void;
    let reads = 0;
    const missed = entry('m9', 'text', { text: 'Sent while you were away' }, { direction: 'incoming', status: 'read', timestamp: '2026-01-01T11:00:00Z' });
    const { realtime } = renderPane({
      [`GET /api/conversation/${PHONE}`]: async () => {
        reads += 1;
        if (reads === 1) return json({ messages: HISTORY, has_more_older: false });
        // The re-read is answered only after the message below was sent and confirmed.
        await new Promise<void>((done) => (release = done));
        return json({ messages: [...HISTORY, missed], has_more_older: false });
      },
      'POST /api/send-message': () => json({ status: 'success', response: { messages: [{ id: 'wamid.during' }] } }),
    });
    const log = await screen.findByRole('log', { name: 'Messages' });
    realtime.emit({ event: 'reset' });
    await waitFor(() => expect(reads).toBe(2));

    await userEvent.type(screen.getByRole('textbox', { name: 'Type a message' }), 'Sent during the re-read{Enter}');
    const mine = () => within(log).getByRole('article', { name: 'Your message' });
    await waitFor(() => expect(mine().querySelector('[data-status="sent"]')).not.toBeNull());
    release();

    expect(await within(log).findByText('Sent while you were away')).toBeInTheDocument();
    expect(mine()).toHaveTextContent('Sent during the re-read');
  });
});


describe('chat pane after a reload during a send', () => {
  beforeEach(async () => {
    signInAs('u1', 'agent');
    await (await db()).clear('pending-messages');
  });

  it('shows a message the server already holds once, and leaves it out of the outbox', async () => {
    // The page before the reload had claimed it and sent it; the answer was lost with the page.
    await (await db()).put('pending-messages', {
      tempMessageId: 'tmp-1',
      account: 'b1:u1',
      to: PHONE,
      phoneNumber: PHONE,
      phoneNumberId: 'pn',
      message_type: 'text',
      text: 'Sent before the reload',
      originalTimestamp: '2026-01-01T10:30:00.000Z',
      conversation_id: CHANNEL,
      senderName: 'You',
      retryCount: 0,
      status: 'sending',
      claimedAt: Date.now(),
    });
    const held = entry('wamid.held', 'text', { text: 'Sent before the reload' }, {
      direction: 'outgoing',
      timestamp: '2026-01-01T10:30:00.000Z',
      sender_name: 'Me',
      client_message_id: 'tmp-1',
    });
    const { requests } = renderPane({
      [`GET /api/conversation/${PHONE}`]: () => json({ messages: [...HISTORY, held], has_more_older: false }),
    });
    const log = await screen.findByRole('log', { name: 'Messages' });
    await within(log).findByText('Sent before the reload');

    await waitFor(async () => expect(await (await db()).get('pending-messages', 'tmp-1')).toBeUndefined());
    expect(within(log).getAllByText('Sent before the reload')).toHaveLength(1);
    expect(requests.filter((request) => request.path === '/api/send-message')).toHaveLength(0);
  });
});

describe('chat pane quotes', () => {
  const QUESTION = entry('q0', 'text', { text: 'Do you have the blue one?' }, { direction: 'incoming', status: 'read', timestamp: '2026-01-01T09:00:00Z' });
  const quoting = (id: string, text: string) =>
    entry('r1', 'text', { text: 'Or the red one', context: { id, quoted: { direction: 'incoming', type: 'text', text } } }, { direction: 'incoming', status: 'read' });

  beforeEach(async () => {
    signInAs('u1', 'agent');
    await (await db()).clear('pending-messages');
    // jsdom lays nothing out: the list's top is never seen, and scrolling to a message does nothing.
    vi.stubGlobal('IntersectionObserver', class { observe() {} disconnect() {} });
    Element.prototype.scrollIntoView = () => undefined;
  });

  /** The newest page holds only the reply; the page before it, `older`. */
  const pages = (reply: Message, older: Message[]) => ({
    [`GET /api/conversation/${PHONE}`]: ({ path }: { path: string }) =>
      json(path.includes('before_id') ? { messages: older, has_more_older: false } : { messages: [reply], has_more_older: true }),
  });

  it('loads older pages until the quoted message is there, then shows it outlined', async () => {
    renderPane(pages(quoting('q0', QUESTION.content.text as string), [QUESTION]));
    await userEvent.click(await screen.findByRole('button', { name: 'Show the quoted message: Do you have the blue one?' }));
    const log = screen.getByRole('log', { name: 'Messages' });
    await waitFor(() => expect(log.querySelector('[data-message-id="q0"]')).toHaveClass('search-focus'));
  });

  it('says so when the whole history has not the quoted message', async () => {
    const showToast = vi.fn<ShowToast>();
    const { requests } = renderPane(pages(quoting('gone', 'Deleted long ago'), [QUESTION]), conversation, showToast);
    await userEvent.click(await screen.findByRole('button', { name: 'Show the quoted message: Deleted long ago' }));
    await waitFor(() => expect(showToast).toHaveBeenCalledWith('The quoted message is no longer in this conversation.', 'info', 5000));
    expect(requests.filter((request) => request.path.includes('before_id'))).toHaveLength(1);
  });
});

describe('chat pane reply window', () => {
  beforeEach(async () => {
    signInAs('u1', 'agent');
    await (await db()).clear('pending-messages');
  });

  it('says nothing of a closed window while the history of a row without the last message time is read', async () => {
    let release: (() => void) | null = null;
    const justNow = entry('m1', 'text', { text: 'Hello there' }, { direction: 'incoming', status: 'read', timestamp: new Date().toISOString() });
    renderPane(
      {
        [`GET /api/conversation/${PHONE}`]: async () => {
          await new Promise<void>((done) => (release = done));
          return json({ messages: [justNow], has_more_older: false });
        },
      },
      { ...conversation, last_incoming_timestamp: null },
    );
    await waitFor(() => expect(release).not.toBeNull());
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(screen.queryByText(/reply window has closed/)).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    release!();
    expect(await screen.findByRole('timer', { name: /^Reply window closes in/ })).toBeInTheDocument();
    expect(screen.queryByText(/reply window has closed/)).toBeNull();
  });
});
