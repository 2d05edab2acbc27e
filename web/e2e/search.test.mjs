// Full-history search from the chat list: a customer's message far back in the history (older
// than the first page the conversation loads) is found by a word prefix, and choosing the result
// opens the conversation scrolled to that message, highlighted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectMessage, openInboxAsNewOwner, startBrowser } from './browser.mjs';

const newPhone = () => `1678${String(Date.now() % 1_000_000).padStart(6, '0')}1`;
/** More than one page of history (30 messages) comes after the message searched for. */
const LATER_MESSAGES = 35;

describe('message search', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('finds a message deep in history and opens the conversation at it', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const phone = newPhone();
    const name = 'Zelda Deep';
    const needle = await injectMessage(tokens, phone, name, { text: 'Where is the Zeppelin manual <b>please</b>?' });
    for (let i = 1; i <= LATER_MESSAGES; i += 1) {
      await injectMessage(tokens, phone, name, { text: `Follow-up number ${i}` });
    }

    await page.getByLabel('Search name or number').fill('zeppel');
    const results = page.getByRole('region', { name: 'Messages' });
    const hit = results.getByRole('button').filter({ hasText: 'Zeppelin' });
    await hit.waitFor();
    // The snippet is text: the customer's markup shows as typed, the match is marked.
    assert.equal(await hit.locator('mark').textContent(), 'Zeppelin');
    assert.match(await hit.textContent(), /<b>please<\/b>/);

    await hit.click();
    const pane = page.getByRole('region', { name });
    const message = pane.locator(`[data-message-id="${needle.id}"]`);
    await message.and(page.locator('.search-focus')).waitFor();
    const inView = await message.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const list = element.closest('.message-list').getBoundingClientRect();
      return box.top >= list.top && box.bottom <= list.bottom;
    });
    assert.ok(inView, 'the found message is scrolled into view');
    await page.close();
  });

  it('finds Arabic whatever its marks, at 390 px right to left', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const phone = `${newPhone()}2`;
    const name = 'Mona';
    const found = await injectMessage(tokens, phone, name, { text: 'مُحَمَّد يسأل عن الطلبية' });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.setViewportSize({ width: 390, height: 800 });

    await page.getByLabel('ابحث بالاسم أو الرقم').fill('محمد');
    const results = page.getByRole('region', { name: 'الرسائل' });
    const hit = results.getByRole('button').filter({ hasText: 'يسأل' });
    await hit.waitFor();
    assert.equal(await hit.locator('mark').textContent(), 'مُحَمَّد');
    const box = await results.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, 'the results fit the screen');

    await hit.click();
    await page.getByRole('region', { name }).locator(`[data-message-id="${found.id}"]`).waitFor();
    await page.getByRole('button', { name: 'العودة إلى المحادثات' }).click();
    await page.getByRole('button', { name: 'الإعدادات' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.close();
  });
});
