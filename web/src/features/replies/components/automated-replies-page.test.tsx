import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import type { AutomatedReply } from '../api/replies-api';
import { AutomatedRepliesPage } from './automated-replies-page';

const reply = (change: Partial<AutomatedReply>): AutomatedReply => ({
  _id: 'r1',
  trigger: 'hello',
  type: 'text',
  responseText: 'Welcome!',
  caption: '',
  isActive: true,
  isDefault: false,
  cooldownHours: 0,
  quickReplyButtons: [],
  mediaUrl: null,
  mediaType: null,
  interactive: null,
  flowStepCount: 0,
  updatedAt: '2026-11-21T23:30:00.000Z',
  ...change,
});
const HELLO = reply({});
const SUPPORT = reply({ _id: 'r2', trigger: 'Support', responseText: 'We will call you', isActive: false });
const FALLBACK = reply({ _id: 'r3', trigger: 'fallback', responseText: 'Sorry?', isDefault: true });
const TEMPLATES = [
  { name: 'promo', status: 'APPROVED', components: [{ type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop promotions' }] }] },
  { name: 'draft', status: 'PENDING', components: [{ type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Not yet' }] }] },
];

function renderPage(routes: Parameters<typeof fakeServer>[0]) {
  const server = fakeServer({ 'GET /api/templates': () => json(TEMPLATES), ...routes });
  renderWithApp(
    <MemoryRouter>
      <AutomatedRepliesPage />
    </MemoryRouter>,
  );
  return server;
}

/** The multipart fields of the reply call, JSON ones parsed. */
function sent(requests: RecordedRequest[], method: string): Record<string, unknown> {
  const body = requests.find((r) => r.method === method && r.path.startsWith('/api/automated-replies'))?.body;
  expect(body).toBeInstanceOf(FormData);
  const read = (value: string) => (/^[[{]/.test(value) ? (JSON.parse(value) as unknown) : value);
  return Object.fromEntries([...(body as FormData).entries()].map(([key, value]) => [key, typeof value === 'string' ? read(value) : `file:${value.name}`]));
}

describe('automated replies page', () => {
  it('shows 3 skeleton cards while loading, then the cards with Active/Inactive and the Default badge', async () => {
    let answer: (response: Response) => void = () => undefined;
    renderPage({ 'GET /api/automated-replies/': () => new Promise<Response>((done) => (answer = done)) });
    expect(screen.getByRole('heading', { name: 'Automated replies' })).toBeInTheDocument();
    const skeleton = screen.getByRole('status', { name: 'Loading replies' });
    expect(skeleton.querySelectorAll('.skeleton-card')).toHaveLength(3);
    answer(json([HELLO, SUPPORT, FALLBACK]));
    const hello = await screen.findByRole('article', { name: 'hello' });
    expect(within(hello).getByText('Active')).toBeInTheDocument();
    expect(within(hello).queryByText('Default')).toBeNull();
    expect(within(screen.getByRole('article', { name: 'Support' })).getByText('Inactive')).toBeInTheDocument();
    const fallback = screen.getByRole('article', { name: 'fallback' });
    expect(within(fallback).getByText('Default')).toBeInTheDocument();
    expect(fallback).toHaveClass('default');
    expect(screen.queryByRole('status', { name: 'Loading replies' })).toBeNull();
  });

  it('says there are no replies yet, with a hint to click add new', async () => {
    renderPage({ 'GET /api/automated-replies/': () => json([]) });
    expect(await screen.findByText('No automated replies yet.')).toBeInTheDocument();
    expect(screen.getByText('Click “Add new reply” to create one.')).toBeInTheDocument();
  });

  it('shows failed_to_fetch_data in a banner that a click dismisses', async () => {
    renderPage({ 'GET /api/automated-replies/': () => json({}, 500) });
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Failed to fetch data.');
    await userEvent.click(within(banner).getByRole('button'));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('creates a reply whose button links to another reply and whose other button opens a flow step', async () => {
    let replies = [SUPPORT];
    const { requests } = renderPage({
      'GET /api/automated-replies/': () => json(replies),
      'POST /api/automated-replies/': () => {
        replies = [...replies, reply({ _id: 'r9', trigger: 'Stop promotions', quickReplyButtons: [{ id: 'Support', title: 'Help' }], flowStepCount: 1 })];
        return json(replies[1], 201);
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add new reply' }));
    const form = screen.getByRole('form', { name: 'New reply' });
    // Trigger suggestions: quick-reply texts of approved templates only.
    const options = [...form.querySelectorAll('datalist option')].map((option) => option.getAttribute('value'));
    expect(options).toEqual(['Stop promotions']);
    await userEvent.click(within(form).getByRole('button', { name: 'Save reply' }));
    expect(within(form).getByLabelText('Trigger')).toHaveFocus();
    // Its message right under it, on screen with it on a phone, and read with it.
    expect(within(form).getByLabelText('Trigger')).toHaveAccessibleDescription('Trigger is required.');
    expect(within(form).getByLabelText('Trigger').closest('label')?.nextElementSibling).toBe(within(form).getByRole('alert'));
    await userEvent.type(within(form).getByLabelText('Trigger'), 'Stop promotions');
    await userEvent.type(within(form).getByLabelText('Response text'), 'Choose an option');

    const first = within(form).getByRole('group', { name: 'Button 1' });
    await userEvent.type(within(first).getByLabelText('Title'), 'Help');
    await userEvent.selectOptions(within(first).getByLabelText('Link to reply'), 'Support');
    expect(within(first).getByLabelText('ID')).toHaveValue('Support');
    expect(within(first).getByText('This button opens the reply “Support”.')).toBeInTheDocument();
    expect(within(first).queryByRole('button', { name: 'Add flow step' })).toBeNull();

    await userEvent.click(within(form).getByRole('button', { name: 'Add button' }));
    const second = within(form).getByRole('group', { name: 'Button 2' });
    await userEvent.type(within(second).getByLabelText('Title'), 'Prices');
    await userEvent.type(within(second).getByLabelText('ID'), 'prices');
    await userEvent.click(within(second).getByRole('button', { name: 'Add flow step' }));
    const step = within(form).getByRole('region', { name: 'Flow step “prices”' });
    await userEvent.click(within(form).getByRole('button', { name: 'Save reply' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('The flow step “prices” needs a response text or media.');
    // No field of its own holds the step's rule: its message takes the focus.
    expect(within(form).getByRole('alert')).toHaveFocus();
    await userEvent.type(within(step).getByLabelText('Response text'), 'From 5 EUR');
    await userEvent.click(within(form).getByRole('button', { name: 'Save reply' }));

    await screen.findByRole('article', { name: 'Stop promotions' });
    expect(screen.queryByRole('form', { name: 'New reply' })).toBeNull();
    const body = sent(requests, 'POST');
    expect(body).toMatchObject({ trigger: 'Stop promotions', type: 'text', responseText: 'Choose an option', cooldownHours: '0', isActive: 'true' });
    expect(body.quickReplyButtons).toEqual([
      { id: 'Support', title: 'Help' },
      { id: 'prices', title: 'Prices' },
    ]);
    expect(body.flow_definitions).toEqual({ prices: { responseText: 'From 5 EUR', caption: '', quickReplyButtons: [], removeMedia: false } });
  }, 20_000);

  it('keeps at most 3 buttons, and removing the last one leaves an empty one', async () => {
    renderPage({ 'GET /api/automated-replies/': () => json([]) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add new reply' }));
    const form = screen.getByRole('form', { name: 'New reply' });
    const add = within(form).getByRole('button', { name: 'Add button' });
    await userEvent.click(add);
    await userEvent.click(add);
    expect(within(form).getAllByRole('group', { name: /^Button \d$/ })).toHaveLength(3);
    expect(add).toBeDisabled();
    for (const n of [3, 2, 1]) await userEvent.click(within(form).getByRole('button', { name: `Remove Button ${n}` }));
    expect(within(form).getAllByRole('group', { name: /^Button \d$/ })).toHaveLength(1);
    expect(within(within(form).getByRole('group', { name: 'Button 1' })).getByLabelText('Title')).toHaveValue('');
    expect(add).toBeEnabled();
  });

  it('keeps a list within 10 sections of 10 rows and checks it before sending', async () => {
    const { requests } = renderPage({ 'GET /api/automated-replies/': () => json([]) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add new reply' }));
    const form = screen.getByRole('form', { name: 'New reply' });
    await userEvent.click(within(form).getByRole('tab', { name: 'List' }));
    await userEvent.type(within(form).getByLabelText('Trigger'), 'menu');
    const addSection = within(form).getByRole('button', { name: 'Add section' });
    for (let i = 0; i < 9; i += 1) await userEvent.click(addSection);
    expect(within(form).getAllByRole('group', { name: /^Section \d+$/ })).toHaveLength(10);
    expect(addSection).toBeDisabled();
    const addRow = within(form).getByRole('button', { name: 'Add a row to section 1' });
    for (let i = 0; i < 9; i += 1) await userEvent.click(addRow);
    expect(within(form).getAllByRole('group', { name: /^Section 1, row \d+$/ })).toHaveLength(10);
    expect(addRow).toBeDisabled();
    expect(within(form).getByRole('button', { name: 'Remove section 2' })).toBeEnabled();
    expect(within(form).getByRole('button', { name: 'Remove row 1 of section 2' })).toBeDisabled();
    await userEvent.click(within(form).getByRole('button', { name: 'Save reply' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('List header text is required.');
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  }, 20_000);

  it('edits a reply with its flow steps, closes the form on a second edit click, and reports the server detail', async () => {
    const withStep = reply({ quickReplyButtons: [{ id: 'prices', title: 'Prices' }], flowStepCount: 1 });
    const { requests } = renderPage({
      'GET /api/automated-replies/': () => json([withStep]),
      'GET /api/automated-replies/r1/flows': () =>
        json([{ trigger: 'prices', responseText: 'From 5 EUR', caption: '', quickReplyButtons: [], mediaUrl: null, mediaType: null }]),
      'PATCH /api/automated-replies/r1': () => json({ detail: 'An automated reply with the trigger "hi" already exists', message: 'x', code: 'conflict' }, 409),
    });
    const edit = await screen.findByRole('button', { name: 'Edit hello' });
    await userEvent.click(edit);
    const form = await screen.findByRole('form', { name: 'Edit reply' });
    expect(within(form).getByLabelText('Trigger')).toHaveValue('hello');
    // The trigger takes the focus, bringing a form opened below the fold on screen.
    expect(within(form).getByLabelText('Trigger')).toHaveFocus();
    await userEvent.click(within(form).getByRole('button', { name: 'Edit flow step' }));
    expect(within(form).getByRole('region', { name: 'Flow step “prices”' })).toBeInTheDocument();
    await userEvent.click(edit);
    expect(screen.queryByRole('form', { name: 'Edit reply' })).toBeNull();

    await userEvent.click(edit);
    const again = await screen.findByRole('form', { name: 'Edit reply' });
    await userEvent.clear(within(again).getByLabelText('Trigger'));
    await userEvent.type(within(again).getByLabelText('Trigger'), 'hi');
    await userEvent.click(within(again).getByRole('button', { name: 'Save reply' }));
    expect(await screen.findByText('An automated reply with the trigger "hi" already exists')).toBeInTheDocument();
    expect(sent(requests, 'PATCH').flow_definitions).toEqual({
      prices: { responseText: 'From 5 EUR', caption: '', quickReplyButtons: [], removeMedia: false },
    });
  });

  it('says failed_to_fetch_flow_steps and keeps the form closed when the steps cannot be read', async () => {
    renderPage({
      'GET /api/automated-replies/': () => json([reply({ quickReplyButtons: [{ id: 'prices', title: 'Prices' }], flowStepCount: 1 })]),
      'GET /api/automated-replies/r1/flows': () => json({}, 500),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit hello' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch the flow steps.');
    expect(screen.queryByRole('form', { name: 'Edit reply' })).toBeNull();
  });

  it('attaches media with a preview, turns the text into an optional caption, and removes it', async () => {
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL: vi.fn<(blob: Blob) => string>(() => 'blob:preview'), revokeObjectURL: vi.fn<(url: string) => void>() });
    renderPage({ 'GET /api/automated-replies/': () => json([]) });
    await userEvent.click(await screen.findByRole('button', { name: 'Add new reply' }));
    const form = screen.getByRole('form', { name: 'New reply' });
    const zip = new File(['PK'], 'notes.zip', { type: 'application/zip' });
    await userEvent.upload(within(form).getByLabelText('Attach media'), zip, { applyAccept: false });
    expect(within(form).getByRole('alert')).toHaveTextContent('Unsupported media');
    await userEvent.upload(within(form).getByLabelText('Attach media'), new File([new Uint8Array([0x89, 0x50])], 'menu.png', { type: 'image/png' }));
    expect(within(form).getByRole('img', { name: 'Media preview' })).toHaveAttribute('src', 'blob:preview');
    expect(within(form).getByLabelText('Caption (optional)')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Remove media' }));
    expect(within(form).queryByRole('img', { name: 'Media preview' })).toBeNull();
    expect(within(form).getByLabelText('Response text')).toBeInTheDocument();
    expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:preview');
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('deletes after confirmation and reloads; a refused delete shows failed_to_delete_reply', async () => {
    let replies = [HELLO, SUPPORT];
    const { requests } = renderPage({
      'GET /api/automated-replies/': () => json(replies),
      'DELETE /api/automated-replies/r1': () => {
        replies = [SUPPORT];
        return json({ message: 'Automated reply deleted' });
      },
      'DELETE /api/automated-replies/r2': () => json({}, 500),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete hello' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete reply' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Delete hello' }));
    dialog = screen.getByRole('dialog', { name: 'Delete reply' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'hello' })).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Delete Support' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Delete reply' })).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to delete the reply.');
    expect(screen.getByRole('article', { name: 'Support' })).toBeInTheDocument();
  });
});
