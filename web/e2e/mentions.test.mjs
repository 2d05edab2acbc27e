// Mentions against the real server: an agent at 390 px in Arabic types "@" and a prefix in a note,
// the teammates it finds show above the composer, the arrows and Enter pick one, and the note
// reaches that teammate as a toast whose button opens the conversation at the note.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { apiAs as api, createAgent, injectMessage, logIn, registerByApi, twoBrowsers } from './browser.mjs';

const ar = JSON.parse(readFileSync(new URL('../public/locales/ar/translation.json', import.meta.url), 'utf8'));
const phone = `1779${String(Date.now() % 1_000_000).padStart(6, '0')}`;
const CUSTOMER = 'Mona Mention';

describe('mentions in notes', () => {
  const browsers = twoBrowsers();

  it('suggests teammates for @, picks one by keyboard, and the mentioned one opens the note from the toast', async () => {
    // The owner's and Lou's usernames both start with "ann" (newAccount), Kim's too: Kim is not offered.
    const { account: ownerAccount, tokens: owner } = await registerByApi();
    const kim = await createAgent(owner, 'Kim');
    const lou = await createAgent(owner, 'Lou');
    await injectMessage(owner, phone, CUSTOMER, { text: 'Where is my order?' });
    const { phoneNumberId } = await api(owner, 'GET', '/api/config');

    const louPage = await browsers.second.context.newPage();
    await logIn(louPage, lou);
    await louPage.getByRole('img', { name: 'Live' }).waitFor();

    const page = await browsers.first.context.newPage();
    await logIn(page, kim);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
    const pane = page.getByRole('region', { name: CUSTOMER });
    await pane.getByText('Where is my order?').waitFor();

    // Reply mode offers nobody.
    const reply = pane.getByRole('textbox', { name: ar.chat.typeMessage });
    await reply.pressSequentially('@ann');
    assert.equal(await page.getByRole('listbox').count(), 0);
    await reply.fill('');

    await pane.getByRole('radio', { name: ar.team.note }).click();
    const box = pane.getByRole('textbox', { name: ar.team.notePlaceholder });
    await box.pressSequentially('@ANN');
    const list = page.getByRole('listbox', { name: ar.team.mentionMenuLabel });
    await list.waitFor();
    const options = list.getByRole('option');
    const texts = (await options.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    assert.deepEqual(texts, [`Ann ${ownerAccount.lastName} @${ownerAccount.username}`, `Lou Agent @${lou.username}`]);

    // Above the composer, inside the 390 px screen, right to left.
    const [listBox, boxBox] = [await list.boundingBox(), await box.boundingBox()];
    assert.ok(listBox.x >= 0 && listBox.x + listBox.width <= 390, `the list is on screen: ${JSON.stringify(listBox)}`);
    assert.ok(listBox.y >= 0 && listBox.y + listBox.height <= boxBox.y, `the list is above the note box: ${JSON.stringify({ listBox, boxBox })}`);
    for (const option of await options.all()) {
      const optionBox = await option.boundingBox();
      assert.ok(optionBox.x >= listBox.x && optionBox.x + optionBox.width <= listBox.x + listBox.width + 0.5, 'each option lies inside the list');
    }

    await page.keyboard.press('ArrowDown');
    assert.equal(await box.getAttribute('aria-activedescendant'), await options.nth(1).getAttribute('id'));
    assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), `@${lou.username} `);
    await box.pressSequentially('the courier called');
    await page.keyboard.press('Enter');
    await pane.getByRole('article', { name: /Kim Agent/ }).filter({ hasText: 'the courier called' }).waitFor();

    // Lou is told, and the toast's button opens the conversation at the note.
    const toast = louPage.getByRole('status').filter({ hasText: 'Kim Agent mentioned you in a note' });
    await toast.waitFor();
    assert.equal(await louPage.getByRole('region', { name: CUSTOMER }).count(), 0);
    await toast.getByRole('button', { name: 'Open conversation' }).click();
    const louPane = louPage.getByRole('region', { name: CUSTOMER });
    await louPane.getByRole('article', { name: 'Note by Kim Agent' }).filter({ hasText: `@${lou.username} the courier called` }).waitFor();
    await toast.waitFor({ state: 'detached' });
  });
});
