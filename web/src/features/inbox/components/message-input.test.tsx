import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Draft } from '../hooks/use-messages';
import { renderWithApp } from '../../../testing/render';
import { MessageInput } from './message-input';

function renderInput(disabled = false) {
  const onSend = vi.fn<(draft: Draft) => void>();
  const onTemplate = vi.fn<() => void>();
  const onNote = vi.fn<(text: string) => void>();
  const onTyping = vi.fn<() => void>();
  renderWithApp(<MessageInput disabled={disabled} onSend={onSend} onNote={onNote} onTyping={onTyping} onTemplate={onTemplate} canned={[]} cannedValues={{ name: '', phone: '', agent: '' }} />);
  return { onSend, onTemplate, onNote, onTyping, box: screen.getByRole('textbox', { name: 'Type a message' }) };
}

describe('composer', () => {
  it('sends on Enter and adds a newline on Shift+Enter', async () => {
    const { onSend, box } = renderInput();
    await userEvent.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.type(box, '{Enter}');
    expect(onSend).toHaveBeenCalledWith({ text: 'line one\nline two', files: [] });
    expect(box).toHaveValue('');
  });

  it('does not send blank text', async () => {
    const { onSend, box } = renderInput();
    await userEvent.type(box, '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('writes right to left when the text starts in Arabic', async () => {
    const { box } = renderInput();
    await userEvent.type(box, 'مرحبا hello');
    expect(box).toHaveAttribute('dir', 'rtl');
    await userEvent.clear(box);
    await userEvent.type(box, 'hello مرحبا');
    expect(box).toHaveAttribute('dir', 'ltr');
  });

  it('sends picked files with the text', async () => {
    const { onSend, box } = renderInput();
    const files = [new File(['a'], 'a.pdf', { type: 'application/pdf' }), new File(['b'], 'b.png', { type: 'image/png' })];
    await userEvent.upload(screen.getByLabelText('Attach files', { selector: 'input' }), files);
    await userEvent.type(box, 'both{Enter}');
    expect(onSend).toHaveBeenCalledWith({ text: 'both', files });
  });

  it('is disabled with the banner when the reply window is closed, templates still open', async () => {
    const { box, onTemplate } = renderInput(true);
    expect(box).toBeDisabled();
    expect(screen.getByText(/The 24-hour reply window has closed/)).toBeInTheDocument();
    await userEvent.click(screen.getAllByRole('button', { name: 'Send template' })[0]!);
    expect(onTemplate).toHaveBeenCalled();
  });

  it('posts a note instead of a message in Note mode, even when the reply window is closed', async () => {
    const { onSend, onNote, onTyping } = renderInput(true);
    await userEvent.click(screen.getByRole('radio', { name: 'Note' }));
    expect(screen.queryByRole('button', { name: 'Attach files' })).not.toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Team note, @ to mention' });
    await userEvent.type(box, 'call back @bo {Enter}');
    expect(onNote).toHaveBeenCalledWith('call back @bo');
    expect(onSend).not.toHaveBeenCalled();
    expect(onTyping).toHaveBeenCalled();

    await userEvent.click(screen.getByRole('radio', { name: 'Reply' }));
    expect(screen.getByRole('textbox', { name: 'Type a message' })).toBeDisabled();
  });
});
