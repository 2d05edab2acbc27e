// The inbox against the sandbox: a simulated customer writes in, the message shows up live, the
// agent replies and watches the ticks, media opens, and the stream survives a dropped connection.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, logIn, registerByApi, screenshot, startBrowser } from './browser.mjs';

let phoneCounter = 0;
const newPhone = () => `1666${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

/** A simulated customer writes in through the sandbox. */
async function inject(tokens, from, name, body) {
  const response = await fetch(`${BASE_URL}/sandbox/customers/inject`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}` },
    body: JSON.stringify({ from, name, ...body }),
  });
  assert.equal(response.status, 200, await response.text());
}

describe('inbox', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('shows a customer message live, replies, and the ticks reach read', async () => {
    const page = await browser.context.newPage();
    const { account, tokens } = await registerByApi();
    await logIn(page, account);
    await page.getByRole('img', { name: 'Live' }).waitFor();
    const phone = newPhone();

    await inject(tokens, phone, 'Cora Live', { text: 'Hello, is my order ready?' });
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
    await inject(tokens, phone, 'Cora Live', { text: 'Also, can I pay by card?' });
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'can I pay by card?' }).waitFor();

    await pane.getByRole('textbox', { name: 'Type a message' }).fill('Yes, it ships today.');
    await pane.getByRole('textbox', { name: 'Type a message' }).press('Enter');
    const reply = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Yes, it ships today.' });
    await reply.waitFor();
    await reply.getByRole('img', { name: 'Read' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'chat-dark-en');

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.getByRole('button', { name: 'التبديل إلى السمة الفاتحة' }).click();
    await page.getByRole('img', { name: 'مقروءة', exact: true }).waitFor();
    await screenshot(page, 'chat-light-ar');
    await page.getByRole('button', { name: 'التبديل إلى السمة الداكنة' }).click();
    await page.close();
  });

  it('shows the expired-window banner when the customer never wrote', async () => {
    const page = await browser.context.newPage();
    const { account } = await registerByApi();
    await logIn(page, account);
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
    await inject(tokens, phone, 'Dora Drop', { text: 'First, before the drop' });
    await page.getByRole('button', { name: 'Dora Drop' }).click();
    const pane = page.getByRole('region', { name: 'Dora Drop' });
    await pane.getByText('First, before the drop').waitFor();

    online = false;
    await relay.close({ code: 1012, reason: 'test: drop' });
    await page.getByRole('img', { name: 'Live' }).waitFor({ state: 'detached' });
    await inject(tokens, phone, 'Dora Drop', { text: 'Second, while offline' });
    await inject(tokens, phone, 'Dora Drop', { text: 'Third, while offline' });
    await page.waitForTimeout(500);
    assert.equal(await pane.getByText('Second, while offline').count(), 0);

    online = true;
    await page.getByRole('img', { name: 'Live' }).waitFor();
    await pane.getByText('Second, while offline').waitFor();
    await pane.getByText('Third, while offline').waitFor();
    await page.close();
  });
});
