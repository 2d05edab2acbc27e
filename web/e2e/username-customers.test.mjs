// A customer who took a WhatsApp username writes in without their phone (Meta sends only their
// business-scoped user id): the inbox shows the username, opens the conversation by its BSUID key,
// replies to the BSUID and the ticks reach read.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openInboxAsNewOwner, startBrowser } from './browser.mjs';

let counter = 0;
/** A unique BSUID per run: two capital letters, a dot, then digits. */
const newBsuid = () => `US.${Date.now()}${String((counter += 1)).padStart(4, '0')}`;

describe('username customers', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('lists a username customer, replies to them and the ticks reach read', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const userId = newBsuid();
    const username = `@sheena${counter}`;

    await injectMessage(tokens, undefined, 'Rania Username', { user_id: userId, username, text: 'Does it come in another color?' });
    const row = page.getByRole('button', { name: 'Rania Username' });
    await row.filter({ hasText: 'Does it come in another color?' }).waitFor();
    await row.getByText(username).waitFor();
    assert.doesNotMatch(await row.innerText(), /null/);

    await row.click();
    const pane = page.getByRole('region', { name: 'Rania Username' });
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'another color' }).waitFor();
    await pane.locator('.chat-header').getByText(username).waitFor();

    await pane.getByRole('textbox', { name: 'Type a message' }).fill('Yes, in blue and green.');
    await pane.getByRole('textbox', { name: 'Type a message' }).press('Enter');
    const reply = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Yes, in blue and green.' });
    await reply.waitFor();
    await reply.getByRole('img', { name: 'Read' }).waitFor({ timeout: 20_000 });

    // A link to the conversation (as a push notification opens it) finds it by its BSUID key.
    const config = await fetch(`${BASE_URL}/api/config`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    const { phoneNumberId } = await config.json();
    await page.goto(`/whatsapp?conversation_id=${encodeURIComponent(`${phoneNumberId}_${userId}`)}`);
    await page.getByRole('region', { name: 'Rania Username' }).getByText('Yes, in blue and green.').waitFor();
    await page.close();
  });

  it('names a username customer by their username when they gave no name', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const userId = newBsuid();
    const username = `@nameless${counter}`;
    await injectMessage(tokens, undefined, undefined, { user_id: userId, username, text: 'Just a username here' });
    const row = page.getByRole('button', { name: username });
    await row.filter({ hasText: 'Just a username here' }).waitFor();
    await row.click();
    await page.getByRole('region', { name: username }).getByRole('heading', { name: username }).waitFor();
    await page.close();
  });
});
