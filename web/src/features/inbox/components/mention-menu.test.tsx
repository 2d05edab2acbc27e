import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { signInAs } from '../../../testing/session';
import type { Draft } from '../hooks/use-messages';
import { MessageInput } from './message-input';

const TEAM = [
  { id: 'me', username: 'owner', name: 'Sam Owner', role: 'admin' },
  { id: 'u2', username: 'sara.ali', name: 'Sara Ali', role: 'agent' },
  { id: 'u3', username: 'samir', name: 'Samir Haddad', role: 'agent' },
  { id: 'u4', username: 'omar', name: 'Omar Khaled', role: 'agent' },
];

function renderComposer() {
  signInAs('me', 'admin');
  const server = fakeServer({ 'GET /api/team/members': () => json(TEAM) });
  const onNote = vi.fn<(text: string) => void>();
  const onSend = vi.fn<(draft: Draft) => void>();
  renderWithApp(
    <MessageInput
      disabled={false}
      onSend={onSend}
      onNote={onNote}
      onTyping={vi.fn<() => void>()}
      onTemplate={vi.fn<() => void>()}
      canned={[]}
      cannedValues={{ name: '', phone: '', agent: '' }}
    />,
  );
  return { server, onNote, onSend };
}

async function noteBox() {
  await userEvent.click(screen.getByRole('radio', { name: 'Note' }));
  return screen.getByRole('textbox', { name: 'Team note, @ to mention' });
}

const shown = () => within(screen.getByRole('listbox', { name: 'Teammates to mention' })).getAllByRole('option').map((option) => option.textContent);

describe('mentions in the note composer', () => {
  it('lists the teammates an @prefix finds by username or name, never the writer', async () => {
    renderComposer();
    const box = await noteBox();
    await userEvent.type(box, 'Please check @');
    expect(await screen.findByRole('listbox', { name: 'Teammates to mention' })).toBeInTheDocument();
    expect(shown()).toEqual(['Sara Ali@sara.ali', 'Samir Haddad@samir', 'Omar Khaled@omar']);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await userEvent.type(box, 'SA');
    expect(shown()).toEqual(['Sara Ali@sara.ali', 'Samir Haddad@samir']);
    await userEvent.type(box, 'r');
    expect(shown()).toEqual(['Sara Ali@sara.ali']);
    await userEvent.type(box, 'x');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('moves with the arrows, picks with Enter or Tab, and the note goes with the @username', async () => {
    const { onNote } = renderComposer();
    const box = await noteBox();
    await userEvent.type(box, '@sa');
    const options = await screen.findAllByRole('option');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]?.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(box).toHaveValue('@samir ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(onNote).not.toHaveBeenCalled();
    await userEvent.type(box, 'and @om');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Tab}');
    expect(box).toHaveValue('@samir and @omar ');
    expect(box).toHaveFocus();
    await userEvent.keyboard('look{Enter}');
    expect(onNote).toHaveBeenCalledWith('@samir and @omar look');
  });

  it('picks by a click and closes on Escape, keeping the text', async () => {
    renderComposer();
    const box = await noteBox();
    await userEvent.type(box, 'hi @o');
    await userEvent.click(await screen.findByRole('option', { name: /Omar Khaled/ }));
    expect(box).toHaveValue('hi @omar ');
    await userEvent.type(box, '@s');
    await screen.findByRole('listbox');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(box).toHaveValue('hi @omar @s');
  });

  it('offers nothing in Reply mode and reads the team only once notes are written', async () => {
    const { server } = renderComposer();
    await userEvent.type(screen.getByRole('textbox', { name: 'Type a message' }), '@sa');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(server.requests).toEqual([]);
    await noteBox();
    await vi.waitFor(() => expect(server.requests.map((r) => r.path)).toEqual(['/api/team/members']));
  });
});
