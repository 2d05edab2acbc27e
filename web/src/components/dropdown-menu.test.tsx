import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { DropdownMenu } from './dropdown-menu';
import { Modal } from './modal';

/** A menu of three items; "Edit" opens a dialog. */
function Page() {
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState('');
  const stopEditing = () => setEditing(false);
  const items = ['Reply', 'Copy'].map((label) => ({ label, onSelect: () => setChosen(label) }));
  items.push({ label: 'Edit', onSelect: () => setEditing(true) });
  const dialog = (
    <Modal title="Edit contact" onClose={stopEditing}>
      <button type="button" onClick={stopEditing}>
        Cancel
      </button>
    </Modal>
  );
  return (
    <>
      <DropdownMenu label="Message actions" icon="⌄" items={items} />
      <output>{chosen}</output>
      {editing && dialog}
    </>
  );
}

describe('dropdown menu by keyboard', () => {
  it('opens on its first item, moves with the arrows, Home and End, and chooses with Enter', async () => {
    const user = userEvent.setup();
    render(<Page />);
    screen.getByRole('button', { name: 'Message actions' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menuitem', { name: 'Reply' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Copy' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Reply' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus();
    await user.keyboard('{Home}{ArrowDown}{Enter}');
    expect(screen.getByRole('status')).toHaveTextContent('Copy');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'Message actions' })).toHaveFocus();
  });

  it('gives the focus back to its button on Escape, and after a dialog an item opened closes', async () => {
    const user = userEvent.setup();
    render(<Page />);
    const button = screen.getByRole('button', { name: 'Message actions' });
    await user.click(button);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    await user.keyboard('{Enter}{End}{Enter}');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(button).toHaveFocus();
  });
});
