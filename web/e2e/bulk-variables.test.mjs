// A bulk send whose recipient file gives each recipient its own template variable: the owner
// uploads a CSV with a column named after the template's variable, sees the row that was skipped
// and why, sends, and the sandbox received each recipient's own value.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { approvedTemplate, sandboxTemplates } from './templates.mjs';

const BULK_TIMEOUT_MS = 60_000;

const GREETING_COMPONENTS = [{ type: 'BODY', text: 'Hello {{1}}, your order is ready.', example: { body_text: [['Sam']] } }];

describe('bulk send with per-recipient variables', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('sends each recipient the value of its own row and reports the skipped row', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const name = `order_ready_${Date.now().toString(36)}`;
    await approvedTemplate(tokens, name, GREETING_COMPONENTS);
    await page.goto('/sender');
    const form = page.getByRole('form', { name: 'Template sender' });
    await form.getByRole('radio', { name: 'Bulk from CSV' }).check();
    await form.getByLabel('Template').selectOption({ label: `${name} (en_US)` });
    await form.getByText("add columns named after the template's variables: 1.").waitFor();
    // The typed value is the default for recipients whose row gives none; every row here does.
    await form.getByLabel('Body variable 1').fill('customer');

    const csv = 'PhoneNumber,1\n+44 7700 900123,Omar\n+44 7700 900456,Sheena\nnot a number,Zed\n';
    await form.getByLabel('Recipient file (csv, xls, xlsx)').setInputFiles({ name: 'greetings.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('status').filter({ hasText: '2 numbers loaded successfully from greetings.csv' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Rows skipped: 1 (invalid number: 1, duplicate: 0, missing a variable: 0).' }).waitFor();
    const download = form.getByRole('link', { name: 'Download the skipped rows (CSV)' });
    assert.equal(await download.getAttribute('download'), 'greetings-skipped.csv');
    const skippedCsv = decodeURIComponent((await download.getAttribute('href')).replace(/^data:text\/csv;charset=utf-8,/, ''));
    assert.equal(skippedCsv, 'row,value,reason,variable\n4,not a number,invalid_number,\n');
    await form.getByRole('listitem').filter({ hasText: 'Row 4: not a number (not a valid number)' }).waitFor();
    // The listed row wraps within a phone's width.
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true);

    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('status').filter({ hasText: 'Bulk send complete. Success: 2, Errors: 0' }).waitFor({ timeout: BULK_TIMEOUT_MS });
    const received = Object.fromEntries(
      (await sandboxTemplates(tokens)).map((m) => [m.to, m.template.components.find((c) => c.type === 'body').parameters]),
    );
    assert.deepEqual(received, {
      447700900123: [{ type: 'text', text: 'Omar' }],
      447700900456: [{ type: 'text', text: 'Sheena' }],
    });
    await page.close();
  });
});
