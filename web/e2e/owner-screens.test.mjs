// The owner's screens as a demanding user tries them. At 390 px, in English and in Arabic, a name
// of 60 characters without a space (the longest a field takes) never makes the page wider than
// the screen, and the rows that show it keep their buttons on screen. From the keyboard, a
// confirmation dialog opened with Enter takes the focus, Escape closes it, and the focus is back
// on the button that opened it, so the next Tab goes on from there. In Arabic the sender's file
// picker keeps "اختيار ملف" on one line beside a long file name, and its example number reads
// "+44 7700 900123" left to right. On both themes the page's link, its main button's words, a
// Delete button's words and the template preview's placeholder read at 4.5:1 or more.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs as api, newAccount, openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { contrast } from './layout.mjs';
import { approvedTemplate } from './templates.mjs';

const LONG = 'Abcdefghij'.repeat(6);

/** How far the page and `selector`'s boxes run past the screen's edges. */
function overflow(page, selector) {
  return page.evaluate((selector) => {
    const width = document.documentElement.clientWidth;
    const boxes = [...document.querySelectorAll(selector)].map((element) => element.getBoundingClientRect());
    return {
      width,
      page: document.documentElement.scrollWidth,
      outside: boxes.filter((box) => box.left < -0.5 || box.right > width + 0.5).map((box) => [box.left, box.right]),
      count: boxes.length,
    };
  }, selector);
}

describe("the owner's screens", () => {
  let browser;
  let page;
  before(async () => {
    browser = await startBrowser();
    let tokens;
    ({ page, tokens } = await openInboxAsNewOwner(browser.context));
    await api(tokens, 'POST', '/identity/users/agents', { ...newAccount(), firstName: LONG, lastName: 'Agent' });
    await api(tokens, 'POST', '/identity/users/agents', { ...newAccount(), firstName: 'Kim', lastName: 'Agent' });
    await api(tokens, 'POST', '/api/canned-replies', { shortcut: 'hi', text: 'Hello' });
    await approvedTemplate(tokens, `greet_${Date.now().toString(36)}`, [{ type: 'BODY', text: 'Hello there' }]);
  });
  after(async () => {
    await browser.close();
  });

  const dialogs = [
    { route: '/edit-profile', opener: 'Delete Kim Agent', dialog: 'Delete agent' },
    { route: '/canned-replies', opener: 'Delete /hi', dialog: 'Delete canned reply' },
  ];
  for (const { route, opener, dialog } of dialogs) {
    it(`hands the focus back to "${opener}" when Escape closes "${dialog}"`, async () => {
      await page.goto(route);
      const button = page.getByRole('button', { name: opener });
      await button.focus();
      await page.keyboard.press('Enter');
      const shown = page.getByRole('dialog', { name: dialog });
      await shown.waitFor();
      assert.ok(await shown.evaluate((element) => element.contains(document.activeElement)), 'the dialog holds the focus');
      await page.keyboard.press('Escape');
      await shown.waitFor({ state: 'detached' });
      assert.ok(await button.evaluate((element) => element === document.activeElement), `the focus is on ${await page.evaluate(() => document.activeElement.outerHTML.slice(0, 80))}`);
    });
  }

  for (const language of ['English', 'العربية']) {
    it(`keeps the agent list inside a 390 px screen in ${language}`, async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      // The owner starts in English; the settings menu offers the other language.
      if (language === 'العربية') {
        await page.goto('/whatsapp');
        await page.getByRole('button', { name: 'Settings' }).click();
        await page.getByRole('menuitem', { name: language }).click();
        await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
      }
      await page.goto('/edit-profile');
      await page.getByRole('listitem', { name: `${LONG} Agent` }).waitFor();
      const shown = await overflow(page, '.agent-list li, .agent-list button');
      assert.equal(shown.count, 6);
      assert.ok(shown.page <= shown.width, `the page is ${shown.page} px wide on a ${shown.width} px screen`);
      assert.deepEqual(shown.outside, [], 'the rows and their buttons are on screen');
    });
  }

  it("keeps the sender's file picker on one line and its example number left to right in Arabic", async () => {
    // Runs after the Arabic agent list: the page is in Arabic at 390 px.
    await page.goto('/sender');
    await page.getByRole('radio', { name: 'إرسال جماعي من ملف CSV' }).check();
    await page.getByRole('combobox', { name: 'القالب' }).selectOption({ index: 1 });
    const csv = 'PhoneNumber\n+44 7700 900123\n';
    const name = 'a-very-long-recipient-file-name-without-any-spaces-2026.csv';
    await page.locator('.sender-upload input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const picker = page.locator('.sender-upload .file-pick');
    await page.locator('.sender-upload').getByText(name).waitFor();
    const lines = await picker.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    assert.equal(lines, 1, '"اختيار ملف" is one line');
    const hint = page.locator('.sender-upload').getByText('PhoneNumber', { exact: false }).first();
    const order = await hint.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.data.indexOf('+44 7700 900123');
        if (at < 0) continue;
        const left = (offset) => {
          const range = document.createRange();
          range.setStart(node, at + offset);
          range.setEnd(node, at + offset + 1);
          return range.getBoundingClientRect().left;
        };
        return { plus: left(0), country: left(1), middle: left(4), last: left(9) };
      }
      return null;
    });
    assert.ok(order, 'the hint gives the example number');
    assert.ok(order.plus < order.country && order.country < order.middle && order.middle < order.last, `"+44 7700 900123" reads left to right: ${JSON.stringify(order)}`);
  });

  for (const theme of ['light', 'dark']) {
    it(`reads at 4.5:1 or more on the ${theme} theme: the back link, Add canned reply, Delete, the preview's placeholder`, async () => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      await page.goto('/canned-replies');
      await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
      await page.locator('button.danger').first().waitFor();
      const colours = await page.evaluate(() => {
        const style = (selector) => getComputedStyle(document.querySelector(selector));
        return {
          link: [style('.page-header a').color, style('body').backgroundColor],
          primary: [style('.page-header button.primary').color, style('.page-header button.primary').backgroundColor],
          danger: [style('button.danger').color, style('button.danger').backgroundColor],
        };
      });
      await page.goto('/template');
      const placeholder = page.locator('.template-form-bubble-body.muted');
      await placeholder.waitFor();
      colours.placeholder = await placeholder.evaluate((element) => [getComputedStyle(element).color, getComputedStyle(element.closest('.template-form-bubble')).backgroundColor]);
      for (const [name, [text, background]] of Object.entries(colours)) {
        const ratio = contrast(text, background);
        assert.ok(ratio >= 4.5, `${name}: ${text} on ${background} reads at ${ratio.toFixed(2)}:1`);
      }
    });
  }
});
