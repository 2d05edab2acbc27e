import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { ShowToast } from '../../../lib/toast/toast-context';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { TemplatePage } from './template-page';

// The page is large and the machine may be busy: typing through it takes a while.
vi.setConfig({ testTimeout: 30_000 });

function renderPage(routes: Parameters<typeof fakeServer>[0] = {}) {
  const server = fakeServer(routes);
  const toast = vi.fn<ShowToast>();
  const realtime = fakeRealtime();
  renderWithApp(
    <MemoryRouter initialEntries={['/template']}>
      <realtime.Provider value={realtime.value}>
        <TemplatePage />
      </realtime.Provider>
    </MemoryRouter>,
    toast,
  );
  return { ...server, toast, emit: realtime.emit };
}

const form = () => screen.getByRole('form', { name: 'Create a template' });
const field = (label: string) => within(form()).getByLabelText(label);
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Submit template' }));
const templatePart = (requests: RecordedRequest[]) => {
  const body = requests.find((r) => r.path === '/api/create-template')?.body as FormData;
  return JSON.parse(body.get('template') as string) as Record<string, unknown>;
};

async function addButton(type: string) {
  await userEvent.click(within(form()).getByRole('button', { name: 'Add button' }));
  await userEvent.click(screen.getByRole('menuitem', { name: type }));
}

async function fillValidBasics() {
  await userEvent.type(field('Template name'), 'Spring Sale');
  await userEvent.selectOptions(field('Category'), 'MARKETING');
  await userEvent.type(field('Body text'), 'Hello');
}

describe('template creation page', () => {
  it('normalises the name, counts the body, adds variables with example inputs, and previews it all', async () => {
    renderPage();
    await userEvent.type(field('Template name'), 'Spring Sale-2026!');
    expect(field('Template name')).toHaveValue('spring_sale2026');
    // Latin letters, digits and underscores only: read left to right in Arabic too, from its start.
    expect(field('Template name')).toHaveAttribute('dir', 'ltr');

    await userEvent.selectOptions(field('Header type'), 'TEXT');
    await userEvent.type(field('Header text'), 'Hi ');
    await userEvent.click(screen.getByRole('button', { name: 'Add header variable' }));
    expect(field('Header text')).toHaveValue('Hi {{1}}');
    expect(screen.getByRole('button', { name: 'Add header variable' })).toBeDisabled();
    await userEvent.type(field('Example for {{1}}'), 'Sam');

    await userEvent.type(field('Body text'), 'Order ');
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    await userEvent.type(field('Body text'), '{Enter}ships ');
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    expect(field('Body text')).toHaveValue('Order {{1}}\nships {{2}}');
    expect(within(form()).getByText('23 / 1024')).toBeInTheDocument();
    // The header's {{1}} and the body's {{1}} are two variables: each has its own example.
    expect(within(form()).getAllByLabelText('Example for {{1}}')).toHaveLength(2);
    await userEvent.type(within(form()).getAllByLabelText('Example for {{1}}')[1]!, '123');
    await userEvent.type(field('Footer text'), 'Reply STOP to opt out');
    await addButton('Visit website');
    await userEvent.type(within(screen.getByRole('group', { name: '1. Visit website' })).getByLabelText('Button text'), 'Track');

    const preview = screen.getByRole('complementary', { name: 'Preview' });
    expect(within(preview).getByText('Hi Sam')).toBeInTheDocument();
    // Line breaks are kept; a variable without example stays as written.
    expect(within(preview).getByText((_, element) => element?.textContent === 'Order 123\nships {{2}}')).toHaveClass('template-form-bubble-body');
    expect(within(preview).getByText('Reply STOP to opt out')).toBeInTheDocument();
    expect(within(preview).getByRole('listitem')).toHaveTextContent('Track');
  });

  it('shows the first broken rule inline, in the spec order, and sends nothing', async () => {
    const { requests } = renderPage();
    await submit();
    expect(within(form()).getByRole('alert')).toHaveTextContent('Template name is required.');
    await userEvent.type(field('Template name'), 'promo');
    expect(within(form()).getByRole('alert')).toHaveTextContent('Category is required.');
    await userEvent.selectOptions(field('Category'), 'UTILITY');
    expect(within(form()).getByRole('alert')).toHaveTextContent('Body text is required.');
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    expect(within(form()).getByRole('alert')).toHaveTextContent('Body variable {{1}} needs an example value.');
    await userEvent.type(field('Example for {{1}}'), 'Sam');
    await addButton('Call phone number');
    await userEvent.type(within(screen.getByRole('group', { name: '1. Call phone number' })).getByLabelText('Button text'), 'Call us');
    await userEvent.type(within(screen.getByRole('group', { name: '1. Call phone number' })).getByLabelText('Phone number'), '5551234567');
    expect(within(form()).getByRole('alert')).toHaveTextContent('Button 1 needs a country code and a phone number.');
    await userEvent.selectOptions(within(screen.getByRole('group', { name: '1. Call phone number' })).getByLabelText('Country code'), '+1');
    expect(within(form()).queryByRole('alert')).toBeNull();
    expect(requests.filter((r) => r.path === '/api/create-template')).toHaveLength(0);
  });

  it('focuses the field of the first broken rule on submit', async () => {
    renderPage();
    await userEvent.type(field('Template name'), 'promo');
    await submit();
    expect(field('Category')).toHaveFocus();
    expect(field('Category')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.selectOptions(field('Category'), 'UTILITY');
    await submit();
    expect(field('Body text')).toHaveFocus();
    // A variable without an example: its example's field, not the body text.
    await userEvent.type(field('Body text'), 'Hi {{{{1}}, {{{{2}}');
    await userEvent.type(field('Example for {{1}}'), 'Ann');
    await submit();
    expect(field('Example for {{2}}')).toHaveFocus();
    expect(field('Example for {{2}}')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Body text')).not.toHaveAttribute('aria-invalid');
    // The header's: its text, then its example.
    await userEvent.type(field('Example for {{2}}'), 'Bo');
    await userEvent.selectOptions(field('Header type'), 'TEXT');
    await submit();
    expect(field('Header text')).toHaveFocus();
    await userEvent.type(field('Header text'), 'Hi {{{{1}}');
    await submit();
    expect(within(form()).getAllByLabelText('Example for {{1}}')[0]).toHaveFocus();
    // A button's: the field of the numbered button that breaks the rule.
    await userEvent.type(within(form()).getAllByLabelText('Example for {{1}}')[0]!, 'Sam');
    await addButton('Call phone number');
    await addButton('Visit website');
    const call = within(screen.getByRole('group', { name: '1. Call phone number' }));
    const visit = within(screen.getByRole('group', { name: '2. Visit website' }));
    await userEvent.type(call.getByLabelText('Button text'), 'Call us');
    // Each step: the field that has the focus after a submit, and what is typed or chosen there.
    const steps: [HTMLElement, string][] = [
      [visit.getByLabelText('Button text'), 'Track'],
      [visit.getByLabelText('Website URL'), 'https://example.com/track'],
      [call.getByLabelText('Country code'), '+1'],
    ];
    for (const [broken, value] of steps) {
      await submit();
      expect(broken).toHaveFocus();
      expect(broken).toHaveAttribute('aria-invalid', 'true');
      if (broken instanceof HTMLSelectElement) await userEvent.selectOptions(broken, value);
      else await userEvent.type(broken, value);
    }
    await submit();
    expect(call.getByLabelText('Phone number')).toHaveFocus();
  });

  it('rejects an empty {{}} placeholder in named mode', async () => {
    renderPage();
    await fillValidBasics();
    await userEvent.click(within(form()).getByRole('radio', { name: 'Named ({{name}})' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    expect(field('Body text')).toHaveValue('Hello{{}}');
    await submit();
    expect(within(form()).getByRole('alert')).toHaveTextContent('Every {{}} placeholder in the body needs a variable name.');
    fireEvent.change(field('Body text'), { target: { value: 'Hello {{first_name}}' } });
    expect(within(form()).getByRole('alert')).toHaveTextContent('Body variable {{first_name}} needs an example value.');
  });

  it('adds a variable where the caret is', async () => {
    renderPage();
    await userEvent.type(field('Body text'), 'Hello world');
    (field('Body text') as HTMLTextAreaElement).setSelectionRange(5, 5);
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    expect(field('Body text')).toHaveValue('Hello{{1}} world');
    (field('Body text') as HTMLTextAreaElement).setSelectionRange(0, 5);
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    expect(field('Body text')).toHaveValue('{{2}}{{1}} world');
    // Named: the caret waits between the braces for the name.
    await userEvent.click(within(form()).getByRole('radio', { name: 'Named ({{name}})' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add body variable' }));
    expect(field('Body text')).toHaveFocus();
    await userEvent.keyboard('first_name');
    expect(field('Body text')).toHaveValue('{{2}}{{first_name}}{{1}} world');
  });

  it('keeps the per-type and total button maximums with alerts, and removes buttons', async () => {
    const { toast } = renderPage();
    await addButton('Call phone number');
    await addButton('Call phone number');
    expect(toast).toHaveBeenCalledWith('You have reached the limit of 1 for Call phone number buttons.', 'error');
    for (let i = 0; i < 9; i += 1) await addButton('Quick reply');
    expect(within(form()).getAllByRole('group', { name: /^\d+\. / })).toHaveLength(10);
    await addButton('Copy offer code');
    expect(toast).toHaveBeenLastCalledWith('At most 10 buttons are allowed in total.', 'error');
    await userEvent.click(screen.getByRole('button', { name: 'Remove button 1' }));
    expect(within(form()).getAllByRole('group', { name: /^\d+\. / })).toHaveLength(9);
    expect(within(form()).queryByRole('group', { name: /Call phone number/ })).toBeNull();
    await addButton('Copy offer code');
    expect(screen.getByRole('group', { name: '10. Copy offer code' })).toBeInTheDocument();
  });

  it('submits the template, disables Submit meanwhile, and follows the review status live', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { requests, emit } = renderPage({
      'POST /api/create-template': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await fillValidBasics();
    await submit();
    expect(screen.getByRole('button', { name: 'Submit template' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Discard changes' })).toBeDisabled();
    expect(within(form()).getByRole('status')).toHaveTextContent('Submitting template…');
    expect(templatePart(requests)).toEqual({ name: 'spring_sale', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'Hello' }] });

    // The decision may come before the answer: it is kept.
    emit({ event: 'template_status', data: { id: '77', name: 'spring_sale', language: 'en_US', status: 'APPROVED', reason: 'NONE' } });
    answer(json({ result: { id: '77', status: 'PENDING', category: 'MARKETING' } }));
    expect(await within(form()).findByText('Submitted for review.')).toBeInTheDocument();
    expect(within(form()).queryByText(/"category"/)).not.toBeInTheDocument();
    expect(within(form()).getByText('Review status: APPROVED')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit template' })).toBeEnabled();

    emit({ event: 'template_status', data: { id: '78', name: 'other', language: 'en_US', status: 'REJECTED', reason: 'INVALID_FORMAT' } });
    expect(within(form()).getByText('Review status: APPROVED')).toBeInTheDocument();
  });

  it('shows PENDING from the answer until the event, then the rejection with its reason', async () => {
    const { emit } = renderPage({ 'POST /api/create-template': () => json({ result: { id: '9', status: 'PENDING' } }) });
    await fillValidBasics();
    await submit();
    await within(form()).findByText('Review status: PENDING');
    emit({ event: 'template_status', data: { id: '9', name: 'spring_sale', language: 'en_US', status: 'REJECTED', reason: 'INVALID_FORMAT' } });
    expect(within(form()).getByText('Review status: REJECTED Reason: INVALID_FORMAT')).toBeInTheDocument();
  });

  it.each([
    ['a refusal', () => json({ detail: 'Template name already exists', message: 'x', code: 'validation_failed' }, 422), 'Server error: Template name already exists'],
    ['a 2xx that is not 200 or 201', () => json({ detail: 'queued elsewhere' }, 202), 'Submission error response: queued elsewhere'],
    ['a 2xx without detail', () => new Response(null, { status: 204 }), 'Submission error response: unknown error'],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), 'Network error: the server could not be reached.'],
  ])('says what went wrong on %s', async (_name, handler, text) => {
    renderPage({ 'POST /api/create-template': handler });
    await fillValidBasics();
    await submit();
    expect(await within(form()).findByRole('alert')).toHaveTextContent(text);
  });

  it('takes a PNG as header image (by its bytes), alerts on a GIF, and sends the file', async () => {
    const { toast, requests } = renderPage({ 'POST /api/create-template': () => json({ result: { id: '5', status: 'PENDING' } }) });
    await fillValidBasics();
    await userEvent.selectOptions(field('Header type'), 'IMAGE');
    expect(within(form()).getByText('PNG or JPEG, at most 5 MB. It is sent as the sample of the header.')).toBeInTheDocument();
    const gif = new File(['GIF89a....'], 'photo.png', { type: 'image/png' });
    await userEvent.upload(field('Header file'), gif);
    await waitFor(() => expect(toast).toHaveBeenCalledWith('The header image must be a PNG or JPEG file.', 'error'));
    expect(within(form()).getByText('No file chosen.')).toBeInTheDocument();
    await submit();
    expect(within(form()).getByRole('alert')).toHaveTextContent('An image header needs a file.');

    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'sale.png', { type: 'image/png' });
    await userEvent.upload(field('Header file'), png);
    await within(form()).findByText('Chosen file: sale.png');
    expect(screen.getByRole('img', { name: 'sale.png' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/png;base64,/));
    await submit();
    await within(form()).findByText('Review status: PENDING');
    const body = requests.find((r) => r.path === '/api/create-template')?.body as FormData;
    expect((body.get('file') as File).name).toBe('sale.png');
    expect(templatePart(requests).components).toEqual([
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['HEADER_FILE'] } },
      { type: 'BODY', text: 'Hello' },
    ]);
  });

  it('discards every change after confirming, back to en_US, positional and no header', async () => {
    renderPage();
    await fillValidBasics();
    await userEvent.selectOptions(field('Language'), 'ar');
    await userEvent.click(within(form()).getByRole('radio', { name: 'Named ({{name}})' }));
    await userEvent.selectOptions(field('Header type'), 'TEXT');
    await addButton('Quick reply');

    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Cancel' }));
    expect(field('Template name')).toHaveValue('spring_sale');

    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Discard changes?' })).getByRole('button', { name: 'Discard changes' }));
    expect(field('Template name')).toHaveValue('');
    expect(field('Category')).toHaveValue('');
    expect(field('Language')).toHaveValue('en_US');
    expect(within(form()).getByRole('radio', { name: 'Positional ({{1}})' })).toBeChecked();
    expect(field('Header type')).toHaveValue('NONE');
    expect(field('Body text')).toHaveValue('');
    expect(within(form()).queryByRole('group', { name: /^\d+\. / })).toBeNull();
  });
});
