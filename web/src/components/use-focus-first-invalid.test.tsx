import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { useFocusFirstInvalid } from './use-focus-first-invalid';

/** A form whose errors, like the app's forms, are drawn only after the failed submit. */
function Form({ broken }: { broken: 'name' | 'city' | 'rows' }) {
  const [failed, setFailed] = useState(false);
  const { ref, focusInvalid } = useFocusFirstInvalid();
  return (
    <form
      ref={ref}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setFailed(true);
        focusInvalid();
      }}
    >
      <input aria-label="Phone" />
      <input aria-label="Name" aria-invalid={(failed && broken === 'name') || undefined} />
      <select aria-label="City" aria-invalid={(failed && broken === 'city') || undefined} />
      {failed && <p role="alert">{broken === 'rows' ? 'A list needs a row' : 'Fix this'}</p>}
      <button type="submit">Save</button>
    </form>
  );
}

describe('useFocusFirstInvalid', () => {
  it('focuses the first field marked invalid once the errors are drawn', async () => {
    const scrolled = vi.fn<(options?: boolean | ScrollIntoViewOptions) => void>();
    // jsdom does not lay out, so it has no scrollIntoView of its own.
    Element.prototype.scrollIntoView = scrolled;
    try {
      render(<Form broken="city" />);
      await userEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(screen.getByLabelText('City')).toHaveFocus();
      expect(scrolled).toHaveBeenCalledWith({ block: 'center' });
    } finally {
      Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
    }
  });

  it('takes the first in document order when several are marked', async () => {
    render(<Form broken="name" />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Name')).toHaveFocus();
  });

  it('focuses the error itself when no field is marked', async () => {
    render(<Form broken="rows" />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveFocus();
  });
});
