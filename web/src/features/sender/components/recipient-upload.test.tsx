import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer, json } from '../../../testing/fake-server';
import { renderWithApp } from '../../../testing/render';
import type { BulkRecipient } from '../api/sender-api';
import type { SenderStatus } from '../sender-status';
import { stubXhr } from '../testing/fake-xhr';
import { RecipientUpload } from './recipient-upload';

const onUploadProgress = () => undefined;

function renderUpload(columns: string[] = []) {
  const statuses: SenderStatus[] = [];
  const recipients: BulkRecipient[][] = [];
  const onRecipients = (list: BulkRecipient[]) => recipients.push(list);
  const onStatus = (status: SenderStatus) => statuses.push(status);
  renderWithApp(
    <RecipientUpload
      disabled={false}
      columns={columns}
      onRecipients={onRecipients}
      onStatus={onStatus}
      onUploadProgress={onUploadProgress}
    />,
  );
  return { statuses, recipients, input: screen.getByLabelText('Recipient file (csv, xls, xlsx)') };
}

const file = (name: string) => new File(['PhoneNumber\n201001234567\n'], name);
const NONE_SKIPPED = { count: 0, invalid_number: 0, duplicate: 0, missing_variable: 0, csv: 'row,value,reason,variable\n' };
const refusal = (detail: string, status = 422) => () => json({ detail, message: detail, code: 'validation_failed' }, status);

describe('recipient file', () => {
  beforeEach(stubXhr);

  it('reports the numbers the server read from a csv or xlsx file', async () => {
    const { requests } = fakeServer({
      'POST /api/recipients/parse': (request) => {
        const name = ((request.body as FormData).get('file') as File).name;
        const numbers = ['201001234567', '966501234567', '15551230000'];
        return json({ fileName: name, count: 3, numbers, variables: {}, skipped: NONE_SKIPPED });
      },
    });
    const { statuses, recipients, input } = renderUpload();
    await userEvent.upload(input, file('list.xlsx'));
    await vi.waitFor(() => expect(statuses.at(-1)?.type).toBe('success'));
    expect(statuses).toEqual([
      { type: 'loading', text: 'Processing: list.xlsx' },
      { type: 'success', text: '3 numbers loaded successfully from list.xlsx' },
    ]);
    expect(recipients.at(-1)).toEqual([
      { phone_number: '201001234567' },
      { phone_number: '966501234567' },
      { phone_number: '15551230000' },
    ]);
    expect(requests).toHaveLength(1);
  });

  it('asks for the variable columns and shows the skipped rows with their download', async () => {
    const csv = 'row,value,reason,variable\n3,12,invalid_number,\n4,+201001234567,missing_variable,1\n';
    const { requests } = fakeServer({
      'POST /api/recipients/parse': () =>
        json({
          fileName: 'vars.csv',
          count: 1,
          numbers: ['447700900123'],
          variables: { '447700900123': { '1': 'Omar', header_1: 'Hi' } },
          skipped: {
            count: 2,
            invalid_number: 1,
            duplicate: 0,
            missing_variable: 1,
            rows: [
              { row: 3, value: '12', reason: 'invalid_number', variable: null },
              { row: 4, value: '+201001234567', reason: 'missing_variable', variable: '1' },
            ],
            csv,
          },
        }),
    });
    const { recipients, input } = renderUpload(['header_1', '1']);
    expect(screen.getByText(/add columns named after the template's variables: header_1, 1\./)).toBeInTheDocument();
    await userEvent.upload(input, file('vars.csv'));
    const summary = await screen.findByText('Rows skipped: 2 (invalid number: 1, duplicate: 0, missing a variable: 1).', { exact: false });
    const link = screen.getByRole('link', { name: 'Download the skipped rows (CSV)' });
    expect(summary).toContainElement(link);
    expect(link).toHaveAttribute('download', 'vars-skipped.csv');
    const rows = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Row 3: 12 (not a valid number)',
      'Row 4: +201001234567 (no value for 1)',
    ]);
    expect(decodeURIComponent(link.getAttribute('href') ?? '')).toBe(`data:text/csv;charset=utf-8,${csv}`);
    expect((requests[0]?.body as FormData | undefined)?.get('variables')).toBe('header_1,1');
    expect(recipients.at(-1)).toEqual([{ phone_number: '447700900123', variables: { '1': 'Omar', header_1: 'Hi' } }]);
  });

  it('lists the first five skipped rows and counts the others', async () => {
    const rows = [2, 3, 4, 5, 6, 7, 8].map((row) => ({ row, value: '447700900123', reason: 'duplicate', variable: null }));
    fakeServer({
      'POST /api/recipients/parse': () =>
        json({
          fileName: 'repeats.csv',
          count: 1,
          numbers: ['447700900123'],
          variables: {},
          skipped: { count: 7, invalid_number: 0, duplicate: 7, missing_variable: 0, rows, csv: 'row,value,reason,variable\n' },
        }),
    });
    const { input } = renderUpload([]);
    await userEvent.upload(input, file('repeats.csv'));
    const items = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(items.map((row) => row.textContent)).toEqual([
      'Row 2: 447700900123 (repeats an earlier row)',
      'Row 3: 447700900123 (repeats an earlier row)',
      'Row 4: 447700900123 (repeats an earlier row)',
      'Row 5: 447700900123 (repeats an earlier row)',
      'Row 6: 447700900123 (repeats an earlier row)',
      '…and 2 more, in the download',
    ]);
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
