// Canned replies against the real server: the owner makes one on its page, then types `/short`
// in a conversation, picks it with the keyboard, and the box holds the text with the customer's
// and the owner's names filled in. Nothing goes out until the owner presses Enter. A reply with a
// picture attaches it in the composer, and Send delivers an image message with the text as caption.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openInboxAsNewOwner, startBrowser } from './browser.mjs';

const CUSTOMER = 'Nadia Canned';
const PICTURE_CUSTOMER = 'Omar Picture';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

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
    await box.press('Enter');
    await list.waitFor({ state: 'hidden' });
    const filled = await box.inputValue();
    assert.match(filled, /^Hello Nadia Canned, Ann Lee \S+ here\. How can I help\?$/);

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

// Its own browser profile: the first test's outbox (kept in the profile) cannot hold this send up.
describe('canned replies with a file', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('with a picture attach it in the composer, and Send delivers an image with the text as caption', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    await page.goto('/canned-replies');
    await page.getByText('No canned replies yet.').waitFor();
    await page.getByRole('button', { name: 'Add canned reply' }).click();
    await page.getByLabel('Shortcut', { exact: true }).fill('menupic');
    await page.getByLabel('Text', { exact: true }).fill('Our menu, {{name}}');
    // The page loaded alone shows the app's own "Attach media" button, never the browser's file control.
    const area = await page.getByLabel('Attach media').evaluate((input) => {
      const box = input.getBoundingClientRect();
      return box.width * box.height;
    });
    assert.ok(area <= 1, `the browser's file control is hidden (${area} px²)`);
    await page.getByLabel('Attach media').setInputFiles({ name: 'menu.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('figure', { name: 'Media preview' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Image: menu.png').waitFor();

    const phone = `49152${String(Date.now()).slice(-8)}`;
    await injectMessage(tokens, phone, PICTURE_CUSTOMER, { text: 'What do you serve?' });
    const headers = { Authorization: `Bearer ${tokens.accessToken}` };
    const { phoneNumberId } = await (await fetch(`${BASE_URL}/api/config`, { headers })).json();
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
    const pane = page.getByRole('region', { name: PICTURE_CUSTOMER });
    await pane.getByText('What do you serve?').waitFor();

    const box = pane.getByRole('textbox', { name: 'Type a message' });
    await box.pressSequentially('/menupic');
    await pane.getByRole('listbox', { name: 'Canned replies' }).waitFor();
    await box.press('Enter');
    await pane.getByRole('list', { name: 'Files to send' }).getByText('menu.png').waitFor();
    assert.equal(await box.inputValue(), 'Our menu, Omar Picture');
    const mine = pane.getByRole('article', { name: 'Your message' });
    assert.equal(await mine.count(), 0, 'choosing the reply sends nothing');

    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    const bubble = mine.filter({ hasText: 'Our menu, Omar Picture' });
    await bubble.getByRole('button', { name: 'Open image' }).waitFor();
    // The provider took it: the server holds the message from here on.
    await bubble.locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').first().waitFor();
    const history = await (await fetch(`${BASE_URL}/api/conversation/${phone}`, { headers })).text();
    const sent = JSON.parse(history);
    const messages = Array.isArray(sent) ? sent : sent.messages;
    const image = messages.find((message) => message.direction === 'outgoing');
    assert.equal(image?.type, 'image', history);
    assert.equal(image?.content?.caption, 'Our menu, Omar Picture', history);
    await page.close();
  });
});
