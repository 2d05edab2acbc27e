import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CannedReply } from '../../../lib/api/canned-replies';
import type { Draft } from '../hooks/use-messages';
import { fakeServer } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { MessageInput } from './message-input';

const REPLIES: CannedReply[] = [
  { id: '1', shortcut: 'hello', text: 'Hello {{name}}, this is {{agent}}.', updated_at: '', media: null },
  { id: '2', shortcut: 'hours', text: 'We open at 9.', updated_at: '', media: null },
  { id: '3', shortcut: 'phone', text: 'Your number is {{phone}}; hello again.', updated_at: '', media: null },
];

function renderComposer(canned = REPLIES) {
  const onSend = vi.fn<(draft: Draft) => void>();
  renderWithApp(
    <MessageInput
      disabled={false}
      onSend={onSend}
      onNote={vi.fn<(text: string) => void>()}
      onTyping={vi.fn<() => void>()}
      onTemplate={vi.fn<() => void>()}
      canned={canned}
      cannedValues={{ name: 'Amira', phone: '4915112345678', agent: 'Sam Owner' }}
    />,
  );
  return { onSend, box: screen.getByRole('textbox', { name: 'Type a message' }) };
}

const shown = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('canned replies in the composer', () => {
  it('opens on a slash at the start or after a space, filtered by shortcut, then by text', async () => {
    const { box } = renderComposer();
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await userEvent.type(box, '/h');
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(shown()).toEqual(['/helloHello {{name}}, this is {{agent}}.', '/hoursWe open at 9.', '/phoneYour number is {{phone}}; hello again.']);
    await userEvent.type(box, 'el');
    expect(shown().map((text) => text?.split(/[A-Z]/)[0])).toEqual(['/hello', '/phone']);
    await userEvent.clear(box);
    await userEvent.type(box, 'see http://x/ho');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await userEvent.type(box, ' /ho');
    expect(screen.getByRole('listbox', { name: 'Canned replies' })).toBeInTheDocument();
  });

  it('lets each preview take the direction of its own words (English in an Arabic page)', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, '/h');
    for (const option of screen.getAllByRole('option')) expect(option.lastElementChild).toHaveAttribute('dir', 'auto');
  });

  it('moves with the arrows and fills the chosen reply on Enter without sending it', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, 'Hi /h');
    const options = screen.getAllByRole('option');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[2]?.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options[2]?.id);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(box).toHaveValue('Hi Hello Amira, this is Sam Owner.');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith({ text: 'Hi Hello Amira, this is Sam Owner.', files: [] });
  });

  it('fills the phone and chooses by a click', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, '/pho');
    await userEvent.click(screen.getByRole('option', { name: /phone/ }));
    expect(box).toHaveValue('Your number is 4915112345678; hello again.');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('closes on Escape and keeps the typed text, and Enter then sends it as typed', async () => {
    const { box, onSend } = renderComposer();
    await userEvent.type(box, '/hours');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('/hours');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith({ text: '/hours', files: [] });
  });

  it('attaches a reply’s file first, so Send sends it with the filled text as caption', async () => {
    const menu: CannedReply = {
      id: '4',
      shortcut: 'menu',
      text: 'Our menu, {{name}}',
      updated_at: '',
      media: { id: 'm1', mime_type: 'image/png', filename: 'menu.png', size: 4 },
    };
    const server = fakeServer({ 'GET /api/media/m1': () => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { headers: { 'Content-Type': 'image/png' } }) });
    const { box, onSend } = renderComposer([menu]);
    await userEvent.type(box, '/men{Enter}');
    expect(box).toHaveValue('Our menu, Amira');
    expect(await screen.findByText('menu.png')).toBeInTheDocument();
    expect(server.requests.map((r) => r.path)).toEqual(['/api/media/m1']);
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    const draft = onSend.mock.calls[0]?.[0];
    expect(draft?.text).toBe('Our menu, Amira');
    expect(draft?.files.map((file) => [file.name, file.type])).toEqual([['menu.png', 'image/png']]);
  });

  it('says so when a reply’s file cannot be fetched, and keeps the text', async () => {
    fakeServer({});
    const { box } = renderComposer([{ id: '5', shortcut: 'gone', text: 'See this', updated_at: '', media: { id: 'x', mime_type: 'image/png', filename: 'x.png', size: 1 } }]);
    await userEvent.type(box, '/gone{Enter}');
    expect(await screen.findByText('Could not attach the canned reply’s file.')).toBeInTheDocument();
    expect(box).toHaveValue('See this');
  });

  it('shows nothing for a query no reply matches', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, '/zzz');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
