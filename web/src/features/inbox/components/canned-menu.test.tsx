import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CannedReply } from '../../../lib/api/canned-replies';
import type { Draft } from '../hooks/use-messages';
import { renderWithApp } from '../../../testing/render';
import { MessageInput } from './message-input';

const REPLIES: CannedReply[] = [
  { id: '1', shortcut: 'hello', text: 'Hello {{name}}, this is {{agent}}.', updated_at: '' },
  { id: '2', shortcut: 'hours', text: 'We open at 9.', updated_at: '' },
  { id: '3', shortcut: 'phone', text: 'Your number is {{phone}}; hello again.', updated_at: '' },
];

function renderComposer() {
  const onSend = vi.fn<(draft: Draft) => void>();
  renderWithApp(
    <MessageInput
      disabled={false}
      onSend={onSend}
      onNote={vi.fn<(text: string) => void>()}
      onTyping={vi.fn<() => void>()}
      onTemplate={vi.fn<() => void>()}
      canned={REPLIES}
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

  it('shows nothing for a query no reply matches', async () => {
    const { box } = renderComposer();
    await userEvent.type(box, '/zzz');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });
});
