// A new agent's first hour, in English and Arabic, on a laptop and a phone: long names and
// messages stay inside their chat row, the reply timer says what it counts, arrows follow the
// reading direction, toasts show above dialogs and clear of the chat header and the composer, the
// chat list loads once, and the profile masks its tokens.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectMessage, logIn, registerByApi, startBrowser } from './browser.mjs';

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const TEXT = {
  // `refused`: the server's English words in English; in Arabic the screen's own message stands in.
  en: { back: 'Back to chats', timer: 'Reply window closes in', contactMenu: 'Contact options', edit: 'Edit contact', save: 'Save', refused: 'Try again soon' },
  ar: { back: 'العودة إلى المحادثات', timer: 'تُغلق نافذة الرد بعد', contactMenu: 'خيارات جهة الاتصال', edit: 'تعديل جهة الاتصال', save: 'حفظ', refused: 'تعذّر تحديث جهة الاتصال.' },
};

let phoneCounter = 0;
const newPhone = () => `1777${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

/** Whether box `inner` lies within box `outer` (half a pixel of rounding allowed). */
const inside = (inner, outer) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

/**
 * The boxes of a chat row, its list, time, unread badge and phone, read in one frame once two
 * frames in a row agree: a row measured part by part while the list still moves would mix frames.
 */
const settledBoxes = (row) =>
  row.evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const read = () => {
      const box = (part) => {
        const { x, y, width, height } = part.getBoundingClientRect();
        return { x, y, width, height };
      };
      return {
        rowBox: box(element),
        listBox: box(element.closest('.conversation-list')),
        timeBox: box(element.querySelector('time')),
        badgeBox: box(element.querySelector('.badge')),
        phoneBox: box(element.querySelector('.row-phone bdi')),
      };
    };
    let last = read();
    for (let tries = 0; tries < 60; tries += 1) {
      await frame();
      const now = read();
      if (JSON.stringify(now) === JSON.stringify(last)) return now;
      last = now;
    }
    return last;
  });

/** A new owner signed in at `viewport` in `language`, with the page-1 list requests it sent and any that failed. */
async function signIn(context, viewport, language) {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  const listRequests = { sent: 0, failed: 0 };
  const isFirstPage = (request) => new URL(request.url()).pathname === '/api/users' && new URL(request.url()).searchParams.get('page') === '1';
  page.on('request', (request) => {
    if (isFirstPage(request)) listRequests.sent += 1;
  });
  page.on('requestfailed', (request) => {
    if (isFirstPage(request)) listRequests.failed += 1;
  });
  const { account, tokens } = await registerByApi();
  const profileRead = page.waitForResponse((response) => response.url().endsWith('/api/users/profile'));
  await logIn(page, account);
  await page.getByRole('img', { name: 'Live' }).waitFor();
  await profileRead;
  if (language === 'ar') {
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/users/toggle-language') && response.ok());
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await saved;
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
  }
  return { page, tokens, listRequests };
}

describe('an agent’s first hour', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  for (const language of ['en', 'ar']) {
    for (const viewport of [PHONE, LAPTOP]) {
      it(`keeps a long customer inside the chat row and labels the reply timer (${language}, ${viewport.width} px)`, async () => {
        const { page, tokens } = await signIn(browser.context, viewport, language);
        const phone = newPhone();
        const name = `Bartholomew ${'Maximilian '.repeat(8)}`.slice(0, 100);
        await injectMessage(tokens, phone, name, { text: `Order ${'details '.repeat(50)}`.slice(0, 300) });

        const row = page.locator('.conversation-row', { hasText: name.slice(0, 20) });
        const badge = row.locator('.badge');
        await badge.waitFor();
        const { rowBox, listBox, timeBox, badgeBox, phoneBox } = await settledBoxes(row);
        assert.ok(rowBox.width <= listBox.width + 0.5, `row ${rowBox.width} px is wider than the list ${listBox.width} px`);
        assert.ok(inside(timeBox, rowBox), `the time ${JSON.stringify(timeBox)} is inside the row ${JSON.stringify(rowBox)}`);
        assert.ok(inside(badgeBox, rowBox), 'the unread badge is inside the row');
        assert.ok(inside(phoneBox, rowBox), 'the phone is inside the row');
        const phoneClipped = await row.locator('.row-phone').evaluate((element) => element.scrollWidth > element.clientWidth);
        assert.equal(phoneClipped, false, 'the phone is shown whole');
        const pageScrolls = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
        assert.equal(pageScrolls, false, 'the page does not scroll sideways');

        await row.click();
        // The window is known once the conversation's messages arrive.
        const timer = page.getByRole('timer', { name: TEXT[language].timer });
        await timer.waitFor();
        assert.ok((await timer.getAttribute('title'))?.startsWith(TEXT[language].timer));
        await page.close();
      });
    }

    it(`turns the back arrow with the reading direction, keeps the name by its avatar, and moves the focus between row and Back (${language}, phone)`, async () => {
      const { page, tokens } = await signIn(browser.context, PHONE, language);
      const phone = newPhone();
      await injectMessage(tokens, phone, 'Cora Arrow', { text: 'Hello' });
      // By keyboard: the pane takes the row's place, and Back the focus the row had.
      const row = page.locator('.conversation-row', { hasText: 'Cora Arrow' });
      await row.focus();
      await page.keyboard.press('Enter');
      const header = page.locator('.chat-header');
      const arrow = header.locator('button svg').first();
      await arrow.waitFor();
      const transform = await arrow.evaluate((element) => getComputedStyle(element).transform);
      assert.equal(transform, language === 'ar' ? 'matrix(-1, 0, 0, 1, 0, 0)' : 'none');
      const avatar = await header.locator('.avatar').boundingBox();
      const title = await header.locator('h2').boundingBox();
      const gap = language === 'ar' ? avatar.x - (title.x + title.width) : title.x - (avatar.x + avatar.width);
      assert.ok(gap >= 0 && gap < 24, `the name is ${gap} px from its avatar`);
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      assert.equal(await focused(), TEXT[language].back, 'Back has the focus');
      await page.keyboard.press('Enter');
      await row.waitFor();
      assert.equal(await focused(), 'Cora Arrow', 'the row of the conversation left has the focus again');
      await page.close();
    });

    it(`shows toasts above an open dialog, clear of the chat header and the composer on a phone, a repeat once (${language})`, async () => {
      const { page, tokens } = await signIn(browser.context, PHONE, language);
      const phone = newPhone();
      await injectMessage(tokens, phone, 'Cora Toast', { text: 'Hello' });
      await page.locator('.conversation-row', { hasText: 'Cora Toast' }).click();
      await page.locator('.composer').waitFor();
      const composer = await page.locator('.composer').boundingBox();
      const header = await page.locator('.chat-header').boundingBox();
      let refused = 0;
      await page.route('**/api/users/update', async (route) => {
        await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'Try again soon', message: 'Try again soon', code: 'unavailable' }) });
        refused += 1;
      });
      await page.getByRole('button', { name: TEXT[language].contactMenu }).click();
      await page.getByRole('menuitem', { name: TEXT[language].edit }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: TEXT[language].save }).click();
      await dialog.getByRole('button', { name: TEXT[language].save }).click();
      // Both refusals answered first: the second one's toast merges into the first.
      for (let i = 0; i < 200 && refused < 2; i += 1) await page.waitForTimeout(50);
      assert.equal(refused, 2, 'both saves reached the server');
      const toast = page.locator('.toast', { hasText: TEXT[language].refused });
      await toast.waitFor();
      await page.waitForTimeout(300); // the stack settles after the merge
      assert.equal(await toast.count(), 1, 'the repeated toast shows once');
      const box = await toast.boundingBox();
      assert.ok(box.y + box.height <= composer.y, 'the toast is clear of the composer');
      assert.ok(box.y >= header.y + header.height, "the toast is clear of the chat header's controls");
      // Hit-testing cannot tell: a modal dialog makes the rest of the page inert. The stack is a
      // popover shown after the dialog opened, so it is above it in the top layer.
      const layered = await page.evaluate(() => !!document.querySelector('dialog:modal') && !!document.querySelector('.toasts:popover-open'));
      assert.ok(layered, 'the toast stack is in the top layer with the open dialog');
      await page.close();
    });
  }

  it('loads the chat list once when the inbox opens', async () => {
    const { page, listRequests } = await signIn(browser.context, LAPTOP, 'en');
    // The list shows its loading state before its first page is asked for: wait for the page.
    await page.locator('.conversation-list:not([aria-busy="true"])').waitFor();
    for (let i = 0; i < 100 && listRequests.sent === 0; i += 1) await page.waitForTimeout(50);
    await page.waitForTimeout(300); // room for a second request, were one sent
    assert.equal(listRequests.failed, 0, 'no first-page request was aborted');
    assert.equal(listRequests.sent, 1);
    await page.close();
  });

  it('masks the access token and the verify token on the profile until revealed', async () => {
    const { page } = await signIn(browser.context, PHONE, 'en');
    await page.goto('/edit-profile');
    for (const label of ['Access token', 'Webhook verify token']) {
      const field = page.getByLabel(label, { exact: true });
      assert.equal(await field.getAttribute('type'), 'password');
      await page.getByRole('button', { name: `Show ${label}` }).click();
      assert.equal(await field.getAttribute('type'), 'text');
    }
    await page.close();
  });
});
