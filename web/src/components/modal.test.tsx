import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Modal } from './modal';

/** A page with a button that opens a dialog, and one that removes the opener while it is open. */
function Page() {
  const [open, setOpen] = useState(false);
  const [opener, setOpener] = useState(true);
  return (
    <>
      {opener && <button onClick={() => setOpen(true)}>Delete Kim</button>}
      <button>Elsewhere</button>
      {open && (
        <Modal title="Delete agent" onClose={() => setOpen(false)}>
          <button onClick={() => setOpen(false)}>Cancel</button>
          <button
            onClick={() => {
              setOpener(false);
              setOpen(false);
            }}
          >
            Delete
          </button>
        </Modal>
      )}
    </>
  );
}

describe('modal', () => {
  it('hands the focus back to the button that opened it when it closes', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Kim' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Kim' })).toHaveFocus();
  });

  it('leaves the focus alone when the opener is gone', async () => {
    render(<Page />);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Kim' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('button', { name: 'Delete Kim' })).toBeNull();
    expect(document.body).toHaveFocus();
  });
});
