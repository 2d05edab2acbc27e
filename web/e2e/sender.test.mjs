// The template sender against the real server and the sandbox: a template the sandbox approved
// goes to one number through the form, then in bulk to the numbers of a 50-row CSV and of an XLSX
// made here; the screen reports each job's end from its live progress events, and the sandbox's
// log shows what reached the "provider".
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, logIn, openInboxAsNewOwner, registerByApi, startBrowser } from './browser.mjs';
import { api, approvedTemplate, sandboxTemplates } from './templates.mjs';

const BULK_TIMEOUT_MS = 60_000;

// A 1×1 PNG, for an image header.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEgwGAx4WZ7wAAAABJRU5ErkJggg==', 'base64');

const ORDER_COMPONENTS = [
  { type: 'HEADER', format: 'TEXT', text: 'Order update' },
  { type: 'BODY', text: 'Order {{1}} ships {{2}}.', example: { body_text: [['123', 'today']] } },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://example.com/track/{{1}}', example: ['abc123'] },
      { type: 'COPY_CODE', example: 'SAVE10' },
    ],
  },
];

/** An .xlsx of one sheet: a zip (entries stored, not deflated) of the few parts Excel needs. */
function xlsx(rows) {
  const cell = (value, column, row) => {
    const ref = `${String.fromCharCode(65 + column)}${row}`;
    if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
    return `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
  };
  const sheetRows = rows.map((values, i) => `<row r="${i + 1}">${values.map((v, c) => cell(v, c, i + 1)).join('')}</row>`);
  const ns = 'http://schemas.openxmlformats.org';
  const parts = {
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="Customers" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData>${sheetRows.join('')}</sheetData></worksheet>`,
  };
  return zip(parts);
}

/** A zip archive of the named texts, stored without compression. */
function zip(files) {
  const put = (size, fields) => {
    const header = Buffer.alloc(size);
    for (const [at, bytes, value] of fields) {
      if (bytes === 2) header.writeUInt16LE(value, at);
      else header.writeUInt32LE(value, at);
    }
    return header;
  };
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    // Version 2.0, method 0 (stored); time, date, flags and extra fields stay zero.
    const local = put(30, [[0, 4, 0x04034b50], [4, 2, 20], [14, 4, crc], [18, 4, data.length], [22, 4, data.length], [26, 2, fileName.length]]);
    const central = put(46, [
      [0, 4, 0x02014b50], [4, 2, 20], [6, 2, 20], [16, 4, crc], [20, 4, data.length], [24, 4, data.length],
      [28, 2, fileName.length], [42, 4, offset],
    ]);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const count = Object.keys(files).length;
  const end = put(22, [[0, 4, 0x06054b50], [8, 2, count], [10, 2, count], [12, 4, directory.length], [16, 4, offset]]);
  return Buffer.concat([...locals, directory, end]);
}

/** `count` numbers of the sandbox's made-up customers, digits only with the country code. */
const numbers = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(6, '0')}`);

describe('template sender', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('sends an approved template to one number, then in bulk from a CSV and an XLSX file', async () => {
    const { account, tokens } = await registerByApi();
    const name = `order_update_${Date.now().toString(36)}`;
    await approvedTemplate(tokens, name, ORDER_COMPONENTS);

    const page = await browser.context.newPage();
    // The frames the app's WebSocket receives, to see the jobs' progress events arrive live.
    const frames = [];
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => frames.push(String(payload))));
    await logIn(page, account);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Sender' }).click();
    await page.waitForURL('**/sender');
    const form = page.getByRole('form', { name: 'Template sender' });
    const preview = page.getByRole('complementary', { name: 'Live Preview' });
    await preview.getByText('Select a template to view the preview.').waitFor();

    // One number: the body variables show in red until filled, and the checks run on submit.
    await form.getByLabel('Template').selectOption({ label: `${name} (en_US)` });
    assert.equal(await preview.locator('.sender-missing').count(), 2);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('alert').filter({ hasText: "Please enter the recipient's number" }).waitFor();
    await form.getByLabel('Body variable 1').fill('A-7');
    await form.getByLabel('Body variable 2').fill('tomorrow');
    await form.getByLabel(/Variable of the "Track" button/).fill('A7');
    await form.getByLabel('Coupon code').fill('WELCOME5');
    await preview.getByText('Order A-7 ships tomorrow.').waitFor();
    assert.equal(await preview.locator('.sender-missing').count(), 0);
    await form.getByLabel('Country code').selectOption({ label: 'Egypt (+20)' });
    await form.getByLabel('Phone number').fill('01001234567');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message sent successfully' }).waitFor();
    const single = (await sandboxTemplates(tokens)).filter((m) => m.to === '201001234567');
    assert.equal(single.length, 1);
    assert.deepEqual(single[0].template, {
      name,
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: 'A-7' }, { type: 'text', text: 'tomorrow' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A7' }] },
        { type: 'button', sub_type: 'copy_code', index: '1', parameters: [{ type: 'coupon_code', coupon_code: 'WELCOME5' }] },
      ],
    });

    // The sample file downloads as the spec names it.
    await form.getByRole('radio', { name: 'Bulk from CSV' }).check();
    const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download sample file' }).click()]);
    assert.equal(download.suggestedFilename(), 'sample_phone_numbers.csv');
    await page.getByRole('status').filter({ hasText: 'Download started...' }).waitFor();

    // Bulk from a 50-row CSV: every number gets the template, reported by the job's live progress.
    const csvNumbers = numbers('4917', 50);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please upload a CSV file for bulk sending' }).waitFor();
    const csv = `PhoneNumber\n${csvNumbers.join('\n')}\n`;
    await form.getByLabel('Recipient file (csv, xls, xlsx)').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('status').filter({ hasText: '50 numbers loaded successfully from customers.csv' }).waitFor();
    // The job's report is refused here, so the end can only come from the live events.
    let reportsAsked = 0;
    await page.route('**/api/send-template/jobs/*', (route) => {
      reportsAsked += 1;
      return route.abort();
    });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('status').filter({ hasText: 'Bulk send complete. Success: 50, Errors: 0' }).waitFor({ timeout: BULK_TIMEOUT_MS });
    assert.ok(reportsAsked > 0);
    await page.unroute('**/api/send-template/jobs/*');
    await form.getByText('Upload: 100%').waitFor();
    const finished = frames.map((frame) => JSON.parse(frame)).find((f) => f.event === 'bulk_send_progress' && f.data.finished);
    assert.deepEqual({ ...finished?.data, job_id: undefined }, { job_id: undefined, total: 50, done: 50, success: 50, errors: 0, finished: true });
    const toCsv = (await sandboxTemplates(tokens)).filter((m) => csvNumbers.includes(m.to));
    assert.deepEqual(toCsv.map((m) => m.to).sort(), csvNumbers);

    // Bulk from an XLSX in the light theme: the number column is "phone", one value is not all
    // digits and one repeats, so 20 numbers are loaded and sent.
    await page.goto('/whatsapp');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.goto('/sender');
    await form.getByRole('radio', { name: 'Bulk from CSV' }).check();
    await form.getByLabel('Template').selectOption({ label: `${name} (en_US)` });
    await form.getByLabel('Body variable 1').fill('B-9');
    const sheetNumbers = numbers('447700', 20);
    const rows = [['Name', 'phone'], ...sheetNumbers.map((n, i) => [`Customer ${i}`, Number(n)]), ['Plus', `+${sheetNumbers[0]}`], ['Again', sheetNumbers[1]]];
    await form.getByLabel('Recipient file (csv, xls, xlsx)').setInputFiles({
      name: 'customers.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: xlsx(rows),
    });
    await page.getByRole('status').filter({ hasText: '20 numbers loaded successfully from customers.xlsx' }).waitFor();
    assert.equal(await preview.locator('.sender-missing').count(), 1);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('status').filter({ hasText: 'Bulk send complete. Success: 20, Errors: 0' }).waitFor({ timeout: BULK_TIMEOUT_MS });
    const toSheet = (await sandboxTemplates(tokens)).filter((m) => sheetNumbers.includes(m.to));
    assert.deepEqual(toSheet.map((m) => m.to).sort(), sheetNumbers);
    // The empty second variable went as a single space.
    assert.deepEqual(toSheet[0].template.components[0], { type: 'body', parameters: [{ type: 'text', text: 'B-9' }, { type: 'text', text: ' ' }] });
    await page.goto('/whatsapp');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.close();
  });

  it('sends a template with an image header, the chosen file uploaded with it', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const name = `photo_offer_${Date.now().toString(36)}`;
    const components = [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['HEADER_FILE'] } },
      { type: 'BODY', text: 'New in store today.' },
    ];
    await approvedTemplate(tokens, name, components, PIXEL);
    await page.goto('/sender');
    const form = page.getByRole('form', { name: 'Template sender' });
    await form.getByLabel('Template').selectOption({ label: `${name} (en_US)` });
    await form.getByLabel('Country code').selectOption({ label: 'Egypt (+20)' });
    await form.getByLabel('Phone number').fill('1001234568');
    // Without the file, the template's header cannot be built.
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('alert').filter({ hasText: 'This template requires variables' }).waitFor();
    await form.getByLabel('Header image (JPEG or PNG)').setInputFiles({ name: 'offer.png', mimeType: 'image/png', buffer: PIXEL });
    await page.waitForFunction(() => document.querySelector('.sender-preview img')?.naturalWidth === 1);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message sent successfully' }).waitFor();
    const [sent] = (await sandboxTemplates(tokens)).filter((m) => m.to === '201001234568');
    const header = sent?.template.components.find((c) => c.type === 'header');
    assert.equal(header?.parameters[0]?.type, 'image');
    // The provider got the id of the file uploaded to it (not the client's placeholder): our PNG.
    const profile = await api(tokens, '/identity/users/profile');
    const file = await fetch(`${BASE_URL}/sandbox/files/${header.parameters[0].image.id}`, {
      headers: { Authorization: `Bearer ${profile.accessToken}` },
    });
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), PIXEL);
    await page.close();
  });

  it('shows why a recipient file was refused', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.goto('/sender');
    const form = page.getByRole('form', { name: 'Template sender' });
    await form.getByRole('radio', { name: 'Bulk from CSV' }).check();
    const upload = form.getByLabel('Recipient file (csv, xls, xlsx)');
    for (const [file, message] of [
      [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('201001234567') }, 'Unsupported file type'],
      [{ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('PhoneNumber\n+20 100\nabc\n') }, 'No valid numbers found in empty.csv'],
      [{ name: 'broken.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('not a zip') }, 'Failed to parse Excel file'],
    ]) {
      await upload.setInputFiles(file);
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
    }

    // In Arabic the screen is right-to-left and so are its messages.
    await page.goto('/whatsapp');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.goto('/sender');
    await page.getByRole('heading', { name: 'مرسل القوالب' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    const arabic = page.getByRole('form', { name: 'مرسل القوالب' });
    await arabic.getByRole('radio', { name: 'إرسال جماعي من ملف CSV' }).check();
    await arabic.getByLabel('ملف المستلمين (csv أو xls أو xlsx)').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('1') });
    await page.getByRole('alert').filter({ hasText: 'نوع الملف غير مدعوم' }).waitFor();
    await page.getByRole('complementary', { name: 'معاينة مباشرة' }).getByText('اختر قالبًا لعرض المعاينة.').waitFor();
    await page.close();
  });
});
