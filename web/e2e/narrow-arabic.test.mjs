// Screens at 390 px in Arabic, right to left, holding Latin text: the profile's agent list shows
// "@username · email" in their own order, its label rows keep Save and Delete side by side, the
// sender's country name shows whole, the composer's "Add note" keeps to one line, and WhatsApp's
// errors on a message read in Arabic inside their bubbles on both themes, as do a snooze's time and
// the closed reply window's banner in the chat.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectMessage, newAccount, openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { contrast } from './layout.mjs';
import { api, jsonRequest as json } from './templates.mjs';

const CUSTOMER = { phone: `1776${String(Date.now() % 1_000_000).padStart(6, '0')}`, name: 'Nadim Note' };
const ERRORS_CUSTOMER = { phone: `1775${String(Date.now() % 1_000_000).padStart(6, '0')}`, name: 'Rana Errors' };
const SNOOZED_CONTACT = { phone: `1415${String(Date.now() % 10_000_000).padStart(7, '0')}`, name: 'Sami Snooze' };
const DETAILS = 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.';
const LABELS = [
  ['Billing', '#1d76db'],
  ['VIP', '#fbca04'],
  ['عملاء مميزون جدا', '#0e8a16'],
];

/** Opens the customer's conversation by its link on the theme given; answers its pane. */
async function openOnTheme(page, phoneNumberId, customer, theme) {
  await page.evaluate((value) => localStorage.setItem('theme', value), theme);
  await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${customer.phone}`);
  return page.getByRole('region', { name: customer.name });
}

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
    // The recipient file's picker speaks Arabic, not the browser's "Choose File".
    await page.getByRole('radio', { name: 'إرسال جماعي من ملف CSV' }).check();
    const picker = page.locator('.sender-upload');
    await picker.getByText('اختيار ملف', { exact: true }).waitFor();
    await picker.getByText('لم يتم اختيار ملف').waitFor();
    const native = await picker.locator('input[type=file]').boundingBox();
    assert.ok(native.width <= 1 && native.height <= 1, `the browser's own button is hidden: ${JSON.stringify(native)}`);
  });

  it("says why WhatsApp failed a message in Arabic, inside its bubble, on both themes", async () => {
    const unsupported = { code: 131051, title: 'Message type unknown', message: 'Message type unknown', error_data: { details: 'Message type is currently not supported.' } };
    await injectMessage(tokens, ERRORS_CUSTOMER.phone, ERRORS_CUSTOMER.name, { message: { type: 'unsupported', errors: [unsupported] } });
    // The sandbox fails no send it is given: a failed one, as a `failed` status leaves it, is added
    // to the history's answer.
    const history = (url) => url.pathname === `/api/conversation/${ERRORS_CUSTOMER.phone}`;
    await page.route(
      history,
      async (route) => {
        const answer = await (await route.fetch()).json();
        const failed = {
          message_id: 'wamid.failed-send',
          timestamp: new Date().toISOString(),
          status: 'failed',
          direction: 'outgoing',
          type: 'text',
          content: { text: 'Your parcel is on its way' },
          is_read: true,
          sender_name: 'Ann',
          conversation_id: answer.conversation_id,
          error: { code: 131047, title: 'Re-engagement message', message: 'Re-engagement message', error_data: { details: DETAILS } },
        };
        await route.fulfill({ json: { ...answer, messages: [...answer.messages, failed] } });
      },
    );
    const { phoneNumberId } = await api(tokens, '/api/config');
    try {
      for (const theme of ['dark', 'light']) {
        const pane = await openOnTheme(page, phoneNumberId, ERRORS_CUSTOMER, theme);
        const notes = pane.getByRole('note');
        await notes.nth(1).waitFor();
        const shown = await notes.evaluateAll((elements) =>
          elements.map((note) => {
            const bubble = note.closest('.bubble');
            const rect = (element) => element.getBoundingClientRect().toJSON();
            return {
              headline: note.querySelector('p').textContent,
              note: rect(note),
              bubble: rect(bubble),
              color: getComputedStyle(note.querySelector('p')).color,
              background: getComputedStyle(bubble).backgroundColor,
              pageWidth: document.documentElement.scrollWidth,
            };
          }),
        );
        const where = `${theme} theme`;
        assert.match(shown[0].headline, /لا يمرّر واتساب هذا النوع من الرسائل/, `the customer's unsupported message says why in Arabic (${where})`);
        assert.match(shown[1].headline, /مرّ أكثر من 24 ساعة على آخر رسالة من العميل: أرسل قالبًا/, `the failed send says why in Arabic (${where})`);
        for (const note of shown) {
          assert.doesNotMatch(note.headline, /[A-Za-z]/, `no English in the headline (${where}): ${note.headline}`);
          assert.ok(note.note.left >= note.bubble.left - 0.5 && note.note.right <= note.bubble.right + 0.5, `the line stays in its bubble (${where}): ${JSON.stringify(note)}`);
          assert.ok(note.pageWidth <= 390, `the page does not scroll sideways (${where})`);
          assert.ok(contrast(note.color, note.background) >= 4.5, `the line reads at 4.5:1 or more on its bubble (${where}): ${note.color} on ${note.background}`);
        }
        const failedNote = notes.nth(1);
        await failedNote.getByText('خطأ واتساب 131047').click();
        const words = failedNote.getByText(DETAILS);
        await words.waitFor();
        assert.equal(await words.evaluate((element) => getComputedStyle(element).direction), 'ltr', "WhatsApp's English keeps its own direction");
      }
    } finally {
      await page.unroute(history);
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    }
  });

  it("shows a snooze's time and the closed reply window's banner at 4.5:1 or more, on both themes", async () => {
    // A contact who never wrote: the reply window is closed; snoozed for three days.
    await api(tokens, '/api/contacts/add', json('POST', { name: SNOOZED_CONTACT.name, phone_number: SNOOZED_CONTACT.phone }));
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await api(tokens, `/api/conversation/${SNOOZED_CONTACT.phone}/status`, json('PATCH', { status: 'snoozed', snoozed_until: until }));
    const { phoneNumberId } = await api(tokens, '/api/config');
    try {
      for (const theme of ['dark', 'light']) {
        const pane = await openOnTheme(page, phoneNumberId, SNOOZED_CONTACT, theme);
        for (const part of [pane.locator('.snoozed-until'), pane.locator('.window-banner')]) {
          await part.waitFor();
          const colours = await part.evaluate((element) => {
            // The first ancestor with a background of its own is what the text stands on.
            let under = element;
            while (getComputedStyle(under).backgroundColor === 'rgba(0, 0, 0, 0)') under = under.parentElement;
            return { text: element.textContent, color: getComputedStyle(element).color, background: getComputedStyle(under).backgroundColor };
          });
          assert.ok(contrast(colours.color, colours.background) >= 4.5, `"${colours.text}" reads at 4.5:1 or more (${theme} theme): ${colours.color} on ${colours.background}`);
        }
      }
    } finally {
      await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    }
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

  it("opens a short customer message's menu on the screen", async () => {
    await injectMessage(tokens, CUSTOMER.phone, CUSTOMER.name, { text: 'Ok' });
    const { phoneNumberId } = await api(tokens, '/api/config');
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${CUSTOMER.phone}`);
    const pane = page.getByRole('region', { name: CUSTOMER.name });
    const message = pane.getByRole('article').filter({ hasText: /^Ok/ });
    await message.getByRole('button', { name: 'إجراءات الرسالة' }).click();
    const menu = message.getByRole('menu');
    const box = await menu.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the menu spans ${box.x}..${box.x + box.width} px of a 390 px screen`);
    const item = menu.getByRole('menuitem', { name: 'نسخ النص' });
    // Its items read at the size of the app's other menus, not the bubble's 11 px time line.
    assert.ok(parseFloat(await item.evaluate((element) => getComputedStyle(element).fontSize)) >= 14, 'the items are at least 14 px');
  });
});
