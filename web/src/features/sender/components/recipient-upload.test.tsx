import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import type { SenderStatus } from '../sender-status';
import { stubXhr } from '../testing/fake-xhr';
import { RecipientUpload } from './recipient-upload';

function renderUpload() {
  const statuses: SenderStatus[] = [];
  const recipients: string[][] = [];
  renderWithApp(
    <RecipientUpload
      disabled={false}
      onRecipients={(numbers) => recipients.push(numbers)}
      onStatus={(status) => statuses.push(status)}
      onUploadProgress={() => undefined}
    />,
  );
  return { statuses, recipients, input: screen.getByLabelText('Recipient file (csv, xls, xlsx)') };
}

const file = (name: string) => new File(['PhoneNumber\n201001234567\n'], name);
const refusal = (detail: string, status = 422) => () => json({ detail, message: detail, code: 'validation_failed' }, status);

describe('recipient file', () => {
  beforeEach(stubXhr);

  it('reports the numbers the server read from a csv or xlsx file', async () => {
    const { requests } = fakeServer({
      'POST /api/recipients/parse': (request) => {
        const name = ((request.body as FormData).get('file') as File).name;
        return json({ fileName: name, count: 3, numbers: ['201001234567', '966501234567', '15551230000'], invalid_rows: [] });
      },
    });
    const { statuses, recipients, input } = renderUpload();
    await userEvent.upload(input, file('list.xlsx'));
    await vi.waitFor(() => expect(statuses.at(-1)?.type).toBe('success'));
    expect(statuses).toEqual([
      { type: 'loading', text: 'Processing: list.xlsx' },
      { type: 'success', text: '3 numbers loaded successfully from list.xlsx' },
    ]);
    expect(recipients.at(-1)).toEqual(['201001234567', '966501234567', '15551230000']);
    expect(requests).toHaveLength(1);
  });

  it.each([
    ['list.csv', refusal('Failed to parse CSV'), 'Failed to parse CSV'],
    ['book.xls', refusal('Failed to parse Excel file'), 'Failed to parse Excel file'],
    ['empty.csv', refusal('No valid numbers found in empty.csv'), 'No valid numbers found in empty.csv'],
    ['odd.csv', refusal('Unsupported file type', 415), 'Unsupported file type'],
  ])('shows the message for %s when the server refuses it', async (name, answer, message) => {
    fakeServer({ 'POST /api/recipients/parse': answer });
    const { statuses, recipients, input } = renderUpload();
    await userEvent.upload(input, file(name));
    await vi.waitFor(() => expect(statuses.at(-1)).toEqual({ type: 'error', text: message }));
    expect(recipients.at(-1)).toEqual([]);
  });

  it('refuses other file types without uploading them', async () => {
    const { requests } = fakeServer({});
    const { statuses, input } = renderUpload();
    await userEvent.upload(input, file('numbers.txt'), { applyAccept: false });
    expect(statuses).toEqual([{ type: 'error', text: 'Unsupported file type' }]);
    expect(requests).toHaveLength(0);
  });

  it('downloads the sample file', async () => {
    fakeServer({ 'GET /api/recipients/sample': () => new Response('PhoneNumber\n201001234567\n', { headers: { 'Content-Type': 'text/csv' } }) });
    // Record the blob the page hands to the download link, for this test only.
    const { createObjectURL: originalCreate, revokeObjectURL: originalRevoke } = URL;
    const createObjectURL = vi.fn<(blob: Blob) => string>(() => 'blob:sample');
    Object.assign(URL, { createObjectURL, revokeObjectURL: () => undefined });
    onTestFinished(() => {
      Object.assign(URL, { createObjectURL: originalCreate, revokeObjectURL: originalRevoke });
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { statuses } = renderUpload();
    await userEvent.click(screen.getByRole('button', { name: 'Download sample file' }));
    expect(await screen.findByRole('button', { name: 'Sample downloaded' })).toBeInTheDocument();
    expect(statuses).toEqual([{ type: 'success', text: 'Download started...' }]);
    expect(click).toHaveBeenCalledTimes(1);
    expect(await createObjectURL.mock.calls[0]?.[0].text()).toBe('PhoneNumber\n201001234567\n');
  });
});
