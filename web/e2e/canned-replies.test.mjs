// Canned replies against the real server: the owner makes one on its page, then types `/short`
// in a conversation, picks it with the keyboard, and the box holds the text with the customer's
// and the owner's names filled in. Nothing goes out until the owner presses Enter.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openInboxAsNewOwner, screenshot, startBrowser } from './browser.mjs';

const CUSTOMER = 'Nadia Canned';

describe('canned replies', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
    await browser.context.grantPermissions(['notifications']);
  });
  after(async () => {
    await browser.close();
  });

  it('are made on their page and inserted in the composer, filled, and sent only on Enter', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Canned replies' }).click();
    await page.waitForURL('**/canned-replies');
    await page.getByText('No canned replies yet.').waitFor();

    await page.getByRole('button', { name: 'Add canned reply' }).click();
    await page.getByLabel('Shortcut', { exact: true }).fill('two words');
    await page.getByLabel('Text', { exact: true }).fill('Hello {{name}}, {{agent}} here. How can I help?');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The shortcut must be one word, without spaces.').waitFor();
    await page.getByLabel('Shortcut', { exact: true }).fill('shortgreet');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: '/shortgreet' }).waitFor();
    // The rest runs on a phone-sized screen.
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'canned-replies-390');

    // A customer writes in; the owner opens the conversation by its link.
    const phone = `49151${String(Date.now()).slice(-8)}`;
    await injectMessage(tokens, phone, CUSTOMER, { text: 'Is anyone there?' });
    const config = await fetch(`${BASE_URL}/api/config`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    const { phoneNumberId } = await config.json();
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
    const pane = page.getByRole('region', { name: CUSTOMER });
    await pane.getByText('Is anyone there?').waitFor();

    const box = pane.getByRole('textbox', { name: 'Type a message' });
    await box.pressSequentially('/short');
    const list = pane.getByRole('listbox', { name: 'Canned replies' });
    await list.waitFor();
    const option = list.getByRole('option', { name: /shortgreet/ });
    assert.equal(await option.getAttribute('aria-selected'), 'true');
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    assert.equal(await box.getAttribute('aria-activedescendant'), await option.getAttribute('id'));
    await screenshot(page, 'canned-menu-390');
    await box.press('Enter');
    await list.waitFor({ state: 'hidden' });
    const filled = await box.inputValue();
    assert.match(filled, /^Hello Nadia Canned, Ann Lee \S+ here\. How can I help\?$/);
    await screenshot(page, 'canned-reply-inserted');

    // Nothing was sent by choosing it.
    const mine = pane.getByRole('article', { name: 'Your message' });
    assert.equal(await mine.count(), 0);
    const history = await fetch(`${BASE_URL}/api/conversation/${phone}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    assert.doesNotMatch(await history.text(), /How can I help/);

    await box.press('Enter');
    await mine.filter({ hasText: filled }).waitFor();
    assert.equal(await box.inputValue(), '');
    await page.close();
  });
});
