import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { Template } from '../../../lib/api/types';
import { fakeRealtime } from '../../../testing/fake-realtime';
import { fakeServer, json, type RecordedRequest } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import { stubXhr } from '../testing/fake-xhr';
import { SenderPage } from './sender-page';

// Typing into a form whose country list holds every country is slow on a loaded machine.
vi.setConfig({ testTimeout: 20_000 });

const ORDER: Template = {
  id: 't1',
  name: 'order_update',
  language: 'en_US',
  status: 'APPROVED',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
    { type: 'BODY', text: 'Order {{1}} ships {{2}}.' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://example.com/t/{{1}}' }] },
  ],
};
const PENDING: Template = { ...ORDER, id: 't2', name: 'draft_offer', status: 'PENDING' };

function formFields(request: RecordedRequest): Record<string, string> {
  return Object.fromEntries([...(request.body as FormData).entries()].map(([key, value]) => [key, String(value)]));
}

/** The page, with a live stream the test feeds. */
function renderPage() {
  const realtime = fakeRealtime();
  renderWithApp(
    <MemoryRouter>
      <realtime.Provider value={realtime.value}>
        <SenderPage />
      </realtime.Provider>
    </MemoryRouter>,
  );
  return realtime;
}

const setupRoutes = {
  'GET /api/config': () => json({ phoneNumberId: '1000001', defaultRegion: 'EG' }),
  'GET /api/templates': () => json([ORDER, PENDING]),
};

describe('sender page', () => {
  beforeEach(stubXhr);

  it('shows the loading spinner, then only approved templates as "name (language)"', async () => {
    let release: () => void = () => undefined;
    fakeServer({
      ...setupRoutes,
      'GET /api/config': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return json({ phoneNumberId: '1000001' });
      },
    });
    renderPage();
    expect(await screen.findByText('Loading Configuration...')).toBeInTheDocument();
    release();
    const select = await screen.findByRole('combobox', { name: 'Template' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Select a template...', 'order_update (en_US)']);
    expect(screen.getByText('Select a template to view the preview.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeDisabled();
  });

  it('reports a loading failure with the server detail', async () => {
    fakeServer({ ...setupRoutes, 'GET /api/templates': () => json({ detail: 'Database down', message: 'x' }, 500) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Fetch Error: Database down');
  });

  it('reports missing settings', async () => {
    fakeServer({ ...setupRoutes, 'GET /api/config': () => json({ phoneNumberId: null }) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('Fetch Error: No settings found');
  });

  it('asks for the number, marks missing variables in red, then sends to one recipient', async () => {
    const { requests } = fakeServer({
      ...setupRoutes,
      'POST /api/send-template': () => json({ status: 'success', response: { messages: [{ id: 'wamid.1' }] } }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 'order_update (en_US)');
    const preview = screen.getByRole('complementary', { name: 'Live Preview' });
    expect(preview.querySelectorAll('.sender-missing')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByRole('alert')).toHaveTextContent("Please enter the recipient's number");

    await user.type(screen.getByLabelText('Header variable 1'), 'Ana');
    await user.type(screen.getByLabelText('Body variable 1'), 'A-7');
    await user.type(screen.getByLabelText('Body variable 2'), 'today');
    await user.type(screen.getByLabelText(/Variable of the "Track" button/), 'A7');
    expect(preview).toHaveTextContent('Hi Ana');
    expect(preview).toHaveTextContent('Order A-7 ships today.');
    expect(preview.querySelectorAll('.sender-missing')).toHaveLength(0);
    // The business's own country is the default.
    expect(screen.getByLabelText('Country code')).toHaveValue('EG');
    await user.selectOptions(screen.getByLabelText('Country code'), 'Saudi Arabia (+966)');
    await user.type(screen.getByLabelText('Phone number'), '٠٥٠ ١٢٣ ٤٥٦٧');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    expect(await screen.findByText('Message sent successfully')).toBeInTheDocument();
    const send = requests.find((r) => r.path === '/api/send-template');
    expect(send && formFields(send)).toEqual({
      send_mode: 'single',
      template_name: 'order_update',
      language_code: 'en_US',
      phone_number_id: '1000001',
      to: '+966501234567',
      components_json: JSON.stringify([
        { type: 'header', parameters: [{ type: 'text', text: 'Ana' }] },
        { type: 'body', parameters: [{ type: 'text', text: 'A-7' }, { type: 'text', text: 'today' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A7' }] },
      ]),
    });
  });

  it('names a number the chosen country has not and takes the focus to it, sending nothing', async () => {
    const { requests } = fakeServer(setupRoutes);
    const user = userEvent.setup();
    renderPage();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 'order_update (en_US)');
    await user.type(screen.getByLabelText('Phone number'), '12');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByRole('alert')).toHaveTextContent('12 is not a valid phone number for the chosen country.');
    await waitFor(() => expect(screen.getByLabelText('Phone number')).toHaveFocus());
    expect(screen.getByLabelText('Phone number')).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((r) => r.path === '/api/send-template')).toBe(false);
  });

  it('says a send the provider has not taken yet is queued, not sent', async () => {
    fakeServer({
      ...setupRoutes,
      'POST /api/send-template': () =>
        json({ status: 'queued', detail: 'Stored; the provider has not accepted it yet (rate limit). It will be retried.', response: { messages: [{ id: 'c-1' }] } }, 202),
    });
    const user = userEvent.setup();
    renderPage();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 'order_update (en_US)');
    await user.type(screen.getByLabelText('Phone number'), '1001234567');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Queued: WhatsApp has not accepted the message yet; it will be retried.')).toBeInTheDocument();
    expect(screen.queryByText('Message sent successfully')).not.toBeInTheDocument();
  });

  it('shows the server detail when a send fails', async () => {
    fakeServer({
      ...setupRoutes,
      'POST /api/send-template': () => json({ detail: 'Template order_update (en_US) is PAUSED', message: 'x' }, 422),
    });
    const user = userEvent.setup();
    renderPage();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 'order_update (en_US)');
    await user.type(screen.getByLabelText('Phone number'), '1001234567');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Send failed: Template order_update (en_US) is PAUSED');
    expect(alert).not.toHaveTextContent('Details:');
  });

  it("adds the server's details to a send failure", async () => {
    fakeServer({
      ...setupRoutes,
      'POST /api/send-template': () =>
        json(
          {
            detail: 'The provider refused the request (132000): (#132000) Number of parameters does not match the expected number of params',
            message: 'x',
            code: 'validation_failed',
            details: 'body: number of localizable_params (0) does not match the expected number of params (1)',
          },
          422,
        ),
    });
    const user = userEvent.setup();
    renderPage();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Template' }), 'order_update (en_US)');
    await user.type(screen.getByLabelText('Phone number'), '1001234567');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Send failed: The provider refused the request (132000): (#132000) Number of parameters does not match the expected number of params' +
        ' Details: body: number of localizable_params (0) does not match the expected number of params (1)',
    );
  });

  it('sends to the numbers of a file and reports the job from its live progress', async () => {
    const { requests } = fakeServer({
      ...setupRoutes,
      'POST /api/recipients/parse': () =>
        json({
          fileName: 'list.csv',
          count: 2,
          numbers: ['201001234567', '15551234567'],
          variables: { '15551234567': { '1': 'B-2' } },
          skipped: { count: 0, invalid_number: 0, duplicate: 0, missing_variable: 0, csv: 'row,value,reason,variable\n' },
        }),
      'POST /api/send-template': () => json({ status: 'accepted', job_id: 'job-1', total: 2, results: {} }, 202),
      'GET /api/send-template/jobs/job-1': () =>
        json({ job_id: 'job-1', total: 2, done: 0, success: 0, errors: 0, finished: false, results: {} }),
    });
    const user = userEvent.setup();
    const { emit } = renderPage();
    await user.click(await screen.findByRole('radio', { name: 'Bulk from CSV' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Template' }), 'order_update (en_US)');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please upload a CSV file for bulk sending');

    const csv = new File(['PhoneNumber\n201001234567\n15551234567\n'], 'list.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Recipient file (csv, xls, xlsx)'), csv);
    expect(await screen.findByText('2 numbers loaded successfully from list.csv')).toBeInTheDocument();
    expect(screen.getByText('Upload: 100%')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(requests.some((r) => r.path === '/api/send-template/jobs/job-1')).toBe(true));
    const send = requests.find((r) => r.path === '/api/send-template');
    expect(send && formFields(send)).toMatchObject({
      send_mode: 'bulk',
      recipients_json: JSON.stringify([
        { phone_number: '201001234567' },
        { phone_number: '15551234567', variables: { '1': 'B-2' } },
      ]),
    });
    // Nothing was typed and no submit check holds it back: each empty variable goes as a single space,
    // which a recipient's own value replaces on the server.
    expect(JSON.parse(send ? (formFields(send).components_json ?? '') : '')[1]).toEqual({
      type: 'body',
      parameters: [
        { type: 'text', text: ' ' },
        { type: 'text', text: ' ' },
      ],
    });
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeDisabled();

    const progress = { job_id: 'job-1', total: 2, success: 1, errors: 0 };
    emit({ event: 'bulk_send_progress', data: { ...progress, job_id: 'another', done: 2, finished: true } });
    emit({ event: 'bulk_send_progress', data: { ...progress, done: 1, finished: false } });
    expect(await screen.findByText('Sending... 1 of 2')).toBeInTheDocument();
    emit({ event: 'bulk_send_progress', data: { ...progress, done: 2, errors: 1, finished: true } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Bulk send complete. Success: 1, Errors: 1');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });
});
