import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Modal } from '../../components/modal';
import { useToast, type ToastKind } from './toast-context';
import { ToastProvider } from './toast-provider';

function Trigger({ text, kind = 'info' }: { text: string; kind?: ToastKind }) {
  const show = useToast();
  return (
    <button type="button" onClick={() => show(text, kind)}>
      {`${kind} ${text}`}
    </button>
  );
}

function renderToasts() {
  render(
    <ToastProvider>
      {['one', 'two', 'three', 'four'].map((text) => (
        <Trigger key={text} text={text} />
      ))}
      <Trigger text="one" kind="error" />
    </ToastProvider>,
  );
  return (name: string) => userEvent.click(screen.getByRole('button', { name }));
}

/** The visible toasts' texts, top first. */
function shown() {
  const toasts = [...document.querySelectorAll<HTMLElement>('.toast')];
  for (const toast of toasts) expect(toast).toBeVisible();
  return toasts.map((toast) => toast.textContent);
}

describe('toasts', () => {
  it('shows at most three, newest on top', async () => {
    const click = renderToasts();
    for (const name of ['info one', 'info two', 'info three', 'info four']) await click(name);
    expect(shown()).toEqual(['four', 'three', 'two']);
  });

  it('shows the same text of the same kind once, brought back on top', async () => {
    const click = renderToasts();
    for (const name of ['info one', 'info two', 'info one']) await click(name);
    expect(shown()).toEqual(['one', 'two']);
    await click('error one');
    expect(shown()).toEqual(['one', 'one', 'two']);
    expect(screen.getByRole('alert')).toHaveTextContent('one');
  });

  it('lets a repeated toast last its full time from the repeat', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const click = renderToasts();
      await click('info one');
      act(() => vi.advanceTimersByTime(2000));
      await click('info one');
      act(() => vi.advanceTimersByTime(2000));
      expect(shown()).toEqual(['one']);
      act(() => vi.advanceTimersByTime(1000));
      expect(shown()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('toasts and dialogs', () => {
  it('shows the stack again, so above it, when a dialog opens while a toast shows', async () => {
    function Page() {
      const show = useToast();
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => show('saved')}>
            toast
          </button>
          <button type="button" onClick={() => setOpen(true)}>
            dialog
          </button>
          {open && (
            <Modal title="Edit" onClose={() => setOpen(false)}>
              form
            </Modal>
          )}
        </>
      );
    }
    const shown = vi.spyOn(HTMLElement.prototype, 'showPopover');
    render(
      <ToastProvider>
        <Page />
      </ToastProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'toast' }));
    const stack = document.querySelector('.toasts');
    expect(shown.mock.contexts.filter((element) => element === stack)).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'dialog' }));
    await waitFor(() => expect(shown.mock.contexts.filter((element) => element === stack)).toHaveLength(2));
    expect(shown.mock.contexts.at(-1)).toBe(stack);
  });
});

describe('a toast with an action', () => {
  it('offers its button, which runs the action and dismisses the toast', async () => {
    const run = vi.fn<() => void>();
    function Offer() {
      const show = useToast();
      return (
        <button type="button" onClick={() => show('mentioned', 'info', 5000, { label: 'Open', run })}>
          offer
        </button>
      );
    }
    render(
      <ToastProvider>
        <Offer />
      </ToastProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'offer' }));
    expect(screen.getByRole('status')).toHaveTextContent('mentioned');
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(run).toHaveBeenCalledTimes(1);
    expect(shown()).toEqual([]);
  });
});
