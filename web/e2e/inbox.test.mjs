// The inbox against the sandbox: a simulated customer writes in, the message shows up live, the
// agent replies and watches the ticks, media opens, and the stream survives a dropped connection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectMessage, logIn, openInboxAsNewOwner, registerByApi, startBrowser } from './browser.mjs';

let phoneCounter = 0;
const newPhone = () => `1666${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

describe('inbox', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('shows a customer message live, replies, and the ticks reach read', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const phone = newPhone();

    await injectMessage(tokens, phone, 'Cora Live', { text: 'Hello, is my order ready?' });
    const row = page.getByRole('button', { name: 'Cora Live' });
    await row.filter({ hasText: 'Hello, is my order ready?' }).waitFor();
    await row.getByLabel('1 unread').waitFor();

    await row.click();
    const pane = page.getByRole('region', { name: 'Cora Live' });
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'Hello, is my order ready?' }).waitFor();
    await pane.getByRole('timer', { name: 'Reply window' }).filter({ hasText: /^23:5\d:\d\d$/ }).waitFor();
    // Reading the conversation clears its badge.
    await page.waitForFunction(() => !document.querySelector('.conversation-row[aria-current] .badge'));

    // While open, the next customer message arrives in the pane without a reload.
    await injectMessage(tokens, phone, 'Cora Live', { text: 'Also, can I pay by card?' });
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'can I pay by card?' }).waitFor();

    await pane.getByRole('textbox', { name: 'Type a message' }).fill('Yes, it ships today.');
    await pane.getByRole('textbox', { name: 'Type a message' }).press('Enter');
    const reply = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Yes, it ships today.' });
    await reply.waitFor();
    await reply.getByRole('img', { name: 'Read' }).waitFor({ timeout: 20_000 });

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.getByRole('button', { name: 'التبديل إلى السمة الفاتحة' }).click();
    await page.getByRole('img', { name: 'مقروءة', exact: true }).waitFor();
    await page.getByRole('button', { name: 'التبديل إلى السمة الداكنة' }).click();
    await page.close();
  });

  it('shows the expired-window banner when the customer never wrote', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    const phone = newPhone();
    await page.getByRole('button', { name: 'Add contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add contact' });
    await dialog.getByLabel('Name').fill('Quiet Quinn');
    await dialog.getByLabel('Phone number').fill(`+${phone}`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Contact added.' }).waitFor();
    const pane = page.getByRole('region', { name: 'Quiet Quinn' });
    await pane.getByText('The 24-hour reply window has closed. Only templates can be sent now.').waitFor();
    assert.equal(await pane.getByRole('textbox', { name: 'Type a message' }).isDisabled(), true);
    await pane.getByRole('timer', { name: 'Reply window' }).filter({ hasText: 'Expired' }).waitFor();
    // Templates remain possible: the dialog opens from the banner.
    await pane.getByRole('status').getByRole('button', { name: 'Send template' }).click();
    const templates = page.getByRole('dialog', { name: 'Send a template' });
    await templates.getByText(/No approved templates yet|Template/).first().waitFor();
    await templates.getByRole('button', { name: 'Cancel' }).click();
    await page.close();
  });

  it('catches up on messages that arrived while the connection was down', async () => {
    const page = await browser.context.newPage();
    // The socket goes through a relay the test can cut; while cut, reconnects are refused.
    let online = true;
    let relay = null;
    await page.routeWebSocket(/\/api\/ws/, (socket) => {
      if (!online) {
        socket.close({ code: 1011, reason: 'test: offline' });
        return;
      }
      relay = socket;
      socket.connectToServer();
    });
    const { account, tokens } = await registerByApi();
    await logIn(page, account);
    await page.getByRole('img', { name: 'Live' }).waitFor();
    const phone = newPhone();
    await injectMessage(tokens, phone, 'Dora Drop', { text: 'First, before the drop' });
    await page.getByRole('button', { name: 'Dora Drop' }).click();
    const pane = page.getByRole('region', { name: 'Dora Drop' });
    await pane.getByText('First, before the drop').waitFor();

    online = false;
    await relay.close({ code: 1012, reason: 'test: drop' });
    await page.getByRole('img', { name: 'Live' }).waitFor({ state: 'detached' });
    await injectMessage(tokens, phone, 'Dora Drop', { text: 'Second, while offline' });
    await injectMessage(tokens, phone, 'Dora Drop', { text: 'Third, while offline' });
    await page.waitForTimeout(500);
    assert.equal(await pane.getByText('Second, while offline').count(), 0);

    online = true;
    await page.getByRole('img', { name: 'Live' }).waitFor();
    await pane.getByText('Second, while offline').waitFor();
    await pane.getByText('Third, while offline').waitFor();
    await page.close();
  });

  it('sends an image and a PDF, then opens them from the server', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const phone = newPhone();
    await injectMessage(tokens, phone, 'Mia Media', { text: 'Please send the invoice' });
    await page.getByRole('button', { name: 'Mia Media' }).click();
    const pane = page.getByRole('region', { name: 'Mia Media' });
    await pane.getByText('Please send the invoice').waitFor();

    await pane.locator('input[type=file]').setInputFiles([
      { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) },
      { name: 'parcel.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') },
    ]);
    await pane.getByRole('list', { name: 'Files to send' }).getByText('invoice.pdf').waitFor();
    await pane.getByRole('textbox', { name: 'Type a message' }).fill('Here you go');
    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = pane.getByRole('article', { name: 'Your message' });
    await sent.filter({ hasText: 'Here you go' }).getByRole('img', { name: /Sent|Delivered|Read/ }).waitFor({ timeout: 20_000 });
    await sent.getByRole('button', { name: 'Open image' }).getByRole('img').waitFor();

    // After a reload the media comes from the server with the session's token.
    await page.reload();
    await page.getByRole('button', { name: 'Mia Media' }).click();
    await pane.getByRole('button', { name: 'Open document invoice.pdf' }).waitFor();
    await pane.getByRole('button', { name: 'Open image' }).click();
    const viewer = page.getByRole('dialog', { name: 'Image viewer' });
    await viewer.getByRole('img').waitFor();
    assert.ok(await viewer.getByRole('img').evaluate((img) => img.complete && img.naturalWidth > 0));
    await viewer.getByRole('button', { name: 'Close' }).click();

    // A document is saved, never opened as a page of the app.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      pane.getByRole('button', { name: 'Open document invoice.pdf' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'invoice.pdf');
    assert.equal(page.context().pages().filter((open) => open.url().startsWith('blob:')).length, 0);
    await page.close();
  });

  it('shows the list or the conversation on a small screen, with a back button', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    const { account, tokens } = await registerByApi();
    await logIn(page, account);
    await page.getByRole('img', { name: 'Live' }).waitFor();
    const phone = newPhone();
    await injectMessage(tokens, phone, 'Sam Small', { text: 'Hi from a phone' });
    await page.getByRole('button', { name: 'Sam Small' }).click();
    await page.getByRole('region', { name: 'Sam Small' }).getByText('Hi from a phone').waitFor();
    assert.equal(await page.getByRole('searchbox').count(), 0);
    await page.getByRole('button', { name: 'Back to chats' }).click();
    await page.getByRole('searchbox', { name: 'Search name or number' }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Sam Small' }).count(), 0);
    await page.close();
  });

  it('pages the list by infinite scroll and searches with highlighted matches', async () => {
    const page = await browser.context.newPage();
    const { account, tokens } = await registerByApi();
    const prefix = newPhone().slice(0, 9);
    for (let n = 0; n < 24; n += 1) {
      await injectMessage(tokens, `${prefix}${String(n).padStart(3, '0')}`, `Bulk ${String(n).padStart(2, '0')}`, { text: `Order ${n}` });
    }
    // A short window: the first page of 20 overfills it, so the second waits for the scroll.
    await page.setViewportSize({ width: 1280, height: 400 });
    await logIn(page, account);
    const list = page.getByRole('list', { name: 'Chats' });
    const secondPages = [];
    page.on('request', (request) => request.url().includes('/api/users?page=2') && secondPages.push(request));
    await list.getByRole('button', { name: /^Bulk/ }).first().waitFor();
    const rowHeight = 76;
    // One page of 20 (the sandbox's three simulated customers may add live rows).
    assert.ok((await list.evaluate((element) => element.scrollHeight)) < 24 * rowHeight);
    await page.waitForTimeout(500);
    assert.equal(secondPages.length, 0);
    const nextPage = page.waitForResponse((r) => r.url().includes('/api/users?page=2'));
    await list.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await nextPage;
    // All 24 customers (and the sandbox's own simulated ones) are now in the list.
    await page.waitForFunction((min) => document.querySelector('[aria-label="Chats"][role="list"]').scrollHeight >= min, 24 * rowHeight);

    await page.getByRole('searchbox', { name: 'Search name or number' }).fill('bulk 07');
    await list.getByRole('button', { name: 'Bulk 07' }).locator('mark', { hasText: 'Bulk 07' }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('.conversation-row').length === 1);
    await page.getByRole('searchbox', { name: 'Search name or number' }).fill('nobody-by-this-name');
    await page.getByText('No conversation matches your search').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.conversation-row').length > 1);
    await page.close();
  });
});


/** A 1×1 PNG and a one-page PDF. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
trailer << /Root 1 0 R >>
%%EOF
`;
