// Screens at 390 px in Arabic, right to left, holding Latin text: the profile's agent list shows
// "@username · email" in their own order, its label rows keep Save and Delete side by side, the
// sender's country name shows whole, and the composer's "Add note" keeps to one line.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectMessage, newAccount, openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { api, jsonRequest as json } from './templates.mjs';

const CUSTOMER = { phone: `1776${String(Date.now() % 1_000_000).padStart(6, '0')}`, name: 'Nadim Note' };
const LABELS = [
  ['Billing', '#1d76db'],
  ['VIP', '#fbca04'],
  ['عملاء مميزون جدا', '#0e8a16'],
];

describe('narrow screens in Arabic', () => {
  let browser;
  let page;
  let tokens;
  const agent = newAccount();
  before(async () => {
    browser = await startBrowser();
    ({ page, tokens } = await openInboxAsNewOwner(browser.context));
    await api(tokens, '/identity/users/agents', json('POST', { ...agent, firstName: 'Kim', lastName: 'Agent' }));
    for (const [name, color] of LABELS) await api(tokens, '/api/labels', json('POST', { name, color }));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
  });
  after(async () => {
    await browser.close();
  });

  it('shows an agent as @username · email, each left to right', async () => {
    await page.goto('/edit-profile');
    const line = page.getByRole('listitem', { name: 'Kim Agent' }).locator('.agent-main .muted');
    await line.waitFor();
    const layout = await line.evaluate((element, username) => {
      const text = element.textContent;
      const nodes = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(), start = 0; node; start += node.data.length, node = walker.nextNode()) nodes.push({ node, start });
      const charRect = (offset) => {
        const found = nodes.find(({ node, start }) => offset >= start && offset < start + node.data.length);
        if (!found) return null;
        const range = document.createRange();
        range.setStart(found.node, offset - found.start);
        range.setEnd(found.node, offset - found.start + 1);
        return range.getBoundingClientRect().toJSON();
      };
      const at = text.indexOf(`@${username}`);
      return { text, at: charRect(at), first: charRect(at + 1), second: charRect(at + 2) };
    }, agent.username);
    assert.ok(layout.at && layout.first, `the line names the username: ${layout.text}`);
    assert.ok(layout.at.right <= layout.first.left + 0.5 && layout.first.left - layout.at.right < 2, `"@" stands just before the username: ${JSON.stringify(layout)}`);
    assert.ok(layout.first.right <= layout.second.left + 0.5, `the username runs left to right: ${JSON.stringify(layout)}`);
  });

  it('keeps Save and Delete of every label row side by side, the same in each row', async () => {
    await page.goto('/edit-profile');
    const list = page.getByRole('list', { name: 'تصنيفات النشاط التجاري' });
    await list.getByRole('listitem').nth(LABELS.length - 1).waitFor();
    const rows = await list.evaluate((element) =>
      [...element.querySelectorAll('form')].map((form) => {
        const box = form.getBoundingClientRect();
        const [save, remove] = [...form.querySelectorAll('button')].map((button) => button.getBoundingClientRect());
        return { name: form.getAttribute('aria-label'), save: save.top - box.top, remove: remove.top - box.top, height: box.height, gap: Math.abs(save.left - remove.right) };
      }),
    );
    for (const row of rows) assert.ok(Math.abs(row.save - row.remove) < 1, `Save and Delete share a line in ${row.name}: ${JSON.stringify(row)}`);
    for (const row of rows) assert.ok(Math.abs(row.height - rows[0].height) < 1 && Math.abs(row.save - rows[0].save) < 1, `every row is laid out alike: ${JSON.stringify(rows)}`);
  });

  it("shows the sender's chosen country name whole", async () => {
    await page.goto('/sender');
    const select = page.getByRole('combobox', { name: 'رمز الدولة' });
    await select.waitFor();
    const fit = await select.evaluate((element) => {
      const style = getComputedStyle(element);
      const context = document.createElement('canvas').getContext('2d');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = element.selectedOptions[0].text;
      const padding = parseFloat(style.paddingInlineStart) + parseFloat(style.paddingInlineEnd);
      return { text, needed: context.measureText(text).width + padding, width: element.clientWidth };
    });
    // About 20 px for the arrow.
    assert.ok(fit.needed + 20 <= fit.width, `"${fit.text}" needs ${fit.needed} px and the arrow; the box is ${fit.width} px`);
  });

  it('keeps "Add note" on one line', async () => {
    await injectMessage(tokens, CUSTOMER.phone, CUSTOMER.name, { text: 'Any news?' });
    const { phoneNumberId } = await api(tokens, '/api/config');
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${CUSTOMER.phone}`);
    const pane = page.getByRole('region', { name: CUSTOMER.name });
    await pane.getByText('Any news?').waitFor();
    await pane.getByRole('radio', { name: 'ملاحظة' }).click();
    const button = pane.getByRole('button', { name: 'إضافة ملاحظة' });
    const lines = await button.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    assert.equal(lines, 1);
  });
});
