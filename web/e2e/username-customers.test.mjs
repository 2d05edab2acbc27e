// A customer who took a WhatsApp username writes in without their phone (Meta sends only their
// business-scoped user id): the inbox shows the username, opens the conversation by its BSUID key,
// replies to the BSUID and the ticks reach read. Once WhatsApp joins the BSUID to a phone, a link
// naming the BSUID opens the phone's conversation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { api, jsonRequest as json } from './templates.mjs';

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

  it("opens a link naming a BSUID since joined to a phone as the phone's conversation, at 1280 and 390 px", async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const userId = newBsuid();
    const phone = `1678${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const name = 'Jona Joined';
    await injectMessage(tokens, undefined, name, { user_id: userId, username: `@jona${counter}`, text: 'Hello from my username' });
    // A message naming both joins them: the conversation moves onto the phone's key.
    await injectMessage(tokens, phone, name, { user_id: userId, text: 'Now with my number' });
    const me = await api(tokens, '/identity/users/profile');
    const vip = await api(tokens, '/api/labels', json('POST', { name: 'VIP', color: '#fbca04' }));
    await api(tokens, `/api/conversation/${phone}/labels`, json('PUT', { labels: [vip.id] }));
    await api(tokens, `/api/conversation/${phone}/assignment`, json('PATCH', { assignee_id: me._id }));
    const { phoneNumberId } = await api(tokens, '/api/config');

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`/whatsapp?conversation_id=${encodeURIComponent(`${phoneNumberId}_${userId}`)}`);
      const pane = page.getByRole('region', { name });
      await pane.getByRole('heading', { name }).waitFor();
      await pane.locator('.chat-header').getByText(phone).waitFor();
      await pane.getByRole('list', { name: 'Labels' }).getByText('VIP').waitFor();
      await pane.getByRole('button', { name: 'Resolve' }).waitFor();
      assert.equal(await pane.getByRole('combobox', { name: 'Assignee' }).evaluate((select) => select.selectedOptions[0].text), 'Me', `held by me (${width} px)`);
      await pane.getByText('Hello from my username').waitFor();
      await pane.getByText('Now with my number').waitFor();
      if (width === 1280) assert.equal(await page.getByRole('button', { name }).getAttribute('aria-current'), 'true', "the phone's row is the open one");
    }

    // A later message naming only the BSUID joins the phone's conversation, and shows live.
    const pane = page.getByRole('region', { name });
    await injectMessage(tokens, undefined, name, { user_id: userId, text: 'Still me, by username' });
    await pane.getByText('Still me, by username').waitFor();
    await page.close();
  });
});
