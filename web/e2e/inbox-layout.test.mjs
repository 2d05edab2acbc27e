// The inbox's layout in Chromium against the real server, at 1280 and 390 px, left to right and
// right to left: the list's tabs take a click with their counts in full, a row with labels fits
// its box, the chat header isolates a name written the other way and keeps its start, every
// placeholder (reply and note boxes, search, profile, template form) shows whole on one line, a
// conversation the list does not hold is named by the row its history answers, message search
// hits with long names keep the list on screen, and a toast at 390 px covers neither the chat
// header nor the composer, also with the on-screen keyboard open; a wide picture, the customer's
// or one sent, stays inside its bubble at 390 px, and an order's item keeps its price on one line.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { injectMessage, openInboxAsNewOwner, startBrowser, uploadAsCustomer } from './browser.mjs';
import { assertPlaceholderFits } from './layout.mjs';
import { api, jsonRequest as json } from './templates.mjs';

const base = `1779${String(Date.now() % 100_000).padStart(5, '0')}`;
const LATIN = { phone: `${base}1`, name: 'Maximiliana-Alexandrina von Hohenzollern-Sigmaringen' };
const ARABIC = { phone: `${base}2`, name: 'عبد الرحمن بن عبد العزيز بن عبد الله بن محمد آل سعود' };
const LABELLED = { phone: `${base}3`, name: 'Lena Label' };
const SNOOZED = { phone: `${base}4`, name: 'Sam Snooze' };
const PICTURES = { phone: `${base}5`, name: 'Pia Picture' };
const ORDER = { phone: `${base}6`, name: 'Omar Order' };

/** Switches the interface language from the list's settings menu (saved on the server too). */
async function useLanguage(page, language) {
  await page.goto('/whatsapp');
  await page.getByRole('img', { name: /^(Live|متصل)$/ }).waitFor();
  if ((await page.evaluate(() => document.documentElement.lang)) === language) return;
  await page.getByRole('button', { name: /^(Settings|الإعدادات)$/ }).click();
  await page.getByRole('menuitem', { name: language === 'ar' ? 'العربية' : 'English' }).click();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, language);
}

/** A conversation's assignment, refused by the toast tests. */
const ASSIGNMENT = '**/api/conversation/*/assignment';

/** Whether two client rectangles share any area. */
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('inbox layout', () => {
  let browser;
  let page;
  let tokens;
  let phoneNumberId;
  before(async () => {
    browser = await startBrowser();
    ({ page, tokens } = await openInboxAsNewOwner(browser.context));
    for (const customer of [LATIN, ARABIC, LABELLED, SNOOZED]) await injectMessage(tokens, customer.phone, customer.name, { text: `Hello from ${customer.name}` });
    ({ phoneNumberId } = await api(tokens, '/api/config'));
    const me = await api(tokens, '/identity/users/profile');
    const vip = await api(tokens, '/api/labels', json('POST', { name: 'VIP', color: '#fbca04' }));
    const billing = await api(tokens, '/api/labels', json('POST', { name: 'Billing', color: '#1d76db' }));
    const wholesale = await api(tokens, '/api/labels', json('POST', { name: 'Wholesale', color: '#0e8a16' }));
    for (const customer of [LABELLED, SNOOZED]) {
      // Lena's third label is counted in her list row, not named.
      const labels = customer === LABELLED ? [vip.id, billing.id, wholesale.id] : [vip.id, billing.id];
      await api(tokens, `/api/conversation/${customer.phone}/labels`, json('PUT', { labels }));
      await api(tokens, `/api/conversation/${customer.phone}/assignment`, json('PATCH', { assignee_id: me._id }));
    }
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    await api(tokens, `/api/conversation/${SNOOZED.phone}/status`, json('PATCH', { status: 'snoozed', snoozed_until: until }));
  });
  after(async () => {
    await useLanguage(page, 'en');
    await browser.close();
  });

  it('shows the tabs with their counts in full and takes a click on each, at 1280 and 390 px, in English and Arabic', async () => {
    for (const language of ['en', 'ar']) {
      await useLanguage(page, language);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        const tabs = page.getByRole('tablist').getByRole('tab');
        await tabs.nth(2).filter({ hasText: /\d/ }).waitFor();
        await page.getByRole('combobox').nth(1).waitFor();
        const layout = await page.evaluate(() => {
          const rect = (element) => element.getBoundingClientRect().toJSON();
          const list = document.querySelector('[role="tablist"]');
          return {
            sidebar: rect(document.querySelector('.sidebar')),
            list: { ...rect(list), scrollWidth: list.scrollWidth, clientWidth: list.clientWidth },
            tabs: [...list.querySelectorAll('[role="tab"]')].map((tab) => ({ ...rect(tab), text: tab.innerText, scrollWidth: tab.scrollWidth, clientWidth: tab.clientWidth })),
            selects: [...document.querySelectorAll('.inbox-tabs select')].map(rect),
          };
        });
        const where = `${language} at ${width} px`;
        assert.equal(layout.selects.length, 2, `the status and label filters show (${where})`);
        assert.ok(layout.list.scrollWidth <= layout.list.clientWidth, `the tab row holds its tabs (${where}): ${JSON.stringify(layout.list)}`);
        for (const tab of layout.tabs) {
          assert.match(tab.text, /\d/, `${tab.text} shows its count (${where})`);
          assert.ok(tab.scrollWidth <= tab.clientWidth, `${tab.text} is not cut (${where})`);
          assert.ok(tab.left >= layout.list.left - 0.5 && tab.right <= layout.list.right + 0.5, `${tab.text} lies in the tab row (${where})`);
          assert.ok(tab.left >= layout.sidebar.left && tab.right <= layout.sidebar.right, `${tab.text} lies in the list (${where})`);
          for (const select of layout.selects) assert.ok(!overlap(tab, select), `${tab.text} is not under a filter (${where})`);
        }
        // A real click on each, no force: it fails when another element takes the pointer.
        for (const index of [2, 1, 0]) {
          await tabs.nth(index).click({ timeout: 5_000 });
          assert.equal(await tabs.nth(index).getAttribute('aria-selected'), 'true', `tab ${index} is chosen (${where})`);
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await useLanguage(page, 'en');
  });

  it('fits a row with labels in its box, under the row above, its third label counted, on both themes at 1280 and 390 px', async () => {
    await page.goto('/whatsapp');
    const row = page.getByRole('button', { name: LABELLED.name });
    await row.getByRole('list', { name: 'Labels' }).getByText('Billing').waitFor();
    for (const [width, theme] of [[1280, 'dark'], [1280, 'light'], [390, 'dark'], [390, 'light']]) {
      await page.setViewportSize({ width, height: 800 });
      await page.evaluate((value) => {
        if (document.documentElement.dataset.theme !== value) document.querySelector(`[aria-label^="Switch to ${value}"]`)?.click();
      }, theme);
      await page.waitForFunction((value) => document.documentElement.dataset.theme === value, theme);
      const boxes = await row.evaluate((button) => {
        const rect = (element) => element.getBoundingClientRect().toJSON();
        const main = button.querySelector('.row-main');
        return { row: rect(button), main: rect(main), name: rect(button.querySelector('.row-name')), chips: rect(button.querySelector('.label-chips')), more: rect(button.querySelector('.label-more')), height: main.scrollHeight };
      });
      assert.ok(boxes.name.top >= boxes.row.top, `the name stays below the row's top edge (${theme}): ${JSON.stringify(boxes)}`);
      assert.ok(boxes.main.top >= boxes.row.top && boxes.main.bottom <= boxes.row.bottom, `the row's lines fit its box (${theme}): ${JSON.stringify(boxes)}`);
      assert.ok(boxes.chips.top >= boxes.row.top && boxes.chips.bottom <= boxes.row.bottom, `the chips fit the row (${width} px, ${theme})`);
      const shown = (box) => box.width > 0 && box.top >= boxes.chips.top && box.bottom <= boxes.chips.bottom && box.left >= boxes.row.left && box.right <= boxes.row.right;
      assert.ok(shown(boxes.more), `the "+1" of the third label shows inside the row (${width} px, ${theme}): ${JSON.stringify(boxes)}`);
    }
    await row.getByRole('list', { name: 'Labels' }).getByLabel('1 more label').waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('isolates the header name and keeps its start in view, a Latin name in Arabic and an Arabic one in English, at 390 px', async () => {
    const cases = [
      { language: 'ar', customer: LATIN },
      { language: 'en', customer: ARABIC },
    ];
    for (const { language, customer } of cases) {
      await useLanguage(page, language);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${customer.phone}`);
      const heading = page.getByRole('region', { name: customer.name }).getByRole('heading', { name: customer.name });
      await heading.waitFor();
      const layout = await heading.evaluate((h2) => {
        const walker = document.createTreeWalker(h2, NodeFilter.SHOW_TEXT);
        const text = walker.nextNode();
        const charRect = (index) => {
          const range = document.createRange();
          range.setStart(text, index);
          range.setEnd(text, index + 1);
          return range.getBoundingClientRect().toJSON();
        };
        return { box: h2.getBoundingClientRect().toJSON(), first: charRect(0), last: charRect(text.length - 1), truncated: h2.scrollWidth > h2.clientWidth, overflow: getComputedStyle(h2).textOverflow };
      });
      const where = `${customer.name} in ${language}`;
      assert.ok(layout.truncated, `the name is longer than the header (${where})`);
      assert.equal(layout.overflow, 'ellipsis', `the name ends in an ellipsis (${where})`);
      const inside = (rect) => rect.left >= layout.box.left - 0.5 && rect.right <= layout.box.right + 0.5;
      assert.ok(inside(layout.first), `the name's first letter shows (${where}): ${JSON.stringify(layout)}`);
      assert.ok(!inside(layout.last), `the name's end is what is cut (${where})`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await useLanguage(page, 'en');
  });

  it('shows every placeholder whole on one line at 390 px, in English and Arabic: the reply and note boxes, the search, the profile and the template form', async () => {
    await api(tokens, '/identity/users/profile', json('PATCH', { appSecret: 'a-secret-the-profile-keeps' }));
    for (const language of ['en', 'ar']) {
      await useLanguage(page, language);
      await page.setViewportSize({ width: 390, height: 800 });
      const where = (what) => `${what}, ${language} at 390 px`;
      await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${LABELLED.phone}`);
      const pane = page.getByRole('region', { name: LABELLED.name });
      await pane.getByRole('textbox').waitFor();
      await assertPlaceholderFits(page, pane.getByRole('textbox'), where('the reply box'));
      await pane.getByRole('radio', { name: /^(Note|ملاحظة)$/ }).click();
      await pane.getByRole('button', { name: /^(Add note|إضافة ملاحظة)$/ }).waitFor();
      await assertPlaceholderFits(page, pane.getByRole('textbox'), where('the note box'));
      await pane.getByRole('button', { name: /^(Back to chats|العودة إلى المحادثات)$/ }).click();
      await assertPlaceholderFits(page, page.getByRole('searchbox'), where('the search box'));
      await page.goto('/edit-profile');
      const secret = page.locator('input[placeholder]:not([placeholder=""])');
      await secret.first().waitFor();
      for (const box of await secret.all()) await assertPlaceholderFits(page, box, where('the profile'));
      await page.goto('/template');
      await page.getByRole('button', { name: /^(Add button|إضافة زر)$/ }).click();
      await page.getByRole('menuitem', { name: /^(Visit website|زيارة الموقع)$/ }).click();
      await assertPlaceholderFits(page, page.locator('input[type="url"]'), where('the template button'));
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await useLanguage(page, 'en');
  });

  it('names a conversation the list does not hold from its history: a link to a snoozed, assigned, labelled one', async () => {
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${SNOOZED.phone}`);
    const pane = page.getByRole('region', { name: SNOOZED.name });
    await pane.getByRole('heading', { name: SNOOZED.name }).waitFor();
    await pane.getByText(/^Snoozed until/).waitFor();
    await pane.getByRole('list', { name: 'Labels' }).getByText('VIP').waitFor();
    assert.equal(await pane.getByRole('combobox', { name: 'Assignee' }).evaluate((select) => select.selectedOptions[0].text), 'Me');
    assert.equal(await page.getByRole('button', { name: SNOOZED.name }).count(), 0, 'the open list does not hold it');
  });

  /** A conversation at 390 px whose assignment changes the server refuses: each one toasts. */
  async function openWithRefusedAssignment(height) {
    await page.setViewportSize({ width: 390, height });
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${LABELLED.phone}`);
    const pane = page.getByRole('region', { name: LABELLED.name });
    await pane.getByRole('textbox').waitFor();
    await page.route(ASSIGNMENT, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Assignment is down"}' }));
    return pane;
  }

  it("shows a chat toast at 390 px clear of the header and the composer, and lets clicks through", async () => {
    await useLanguage(page, 'en');
    const pane = await openWithRefusedAssignment(800);
    await pane.getByRole('combobox', { name: 'Assignee' }).selectOption('');
    const toast = page.getByRole('alert').filter({ hasText: 'Assignment is down' });
    await toast.waitFor();
    const layout = await toast.evaluate((element) => {
      const rect = (node) => node.getBoundingClientRect().toJSON();
      const box = rect(element);
      const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return { toast: box, header: rect(document.querySelector('.chat-header')), composer: rect(document.querySelector('.composer')), height: window.innerHeight, takesClicks: element.contains(under) };
    });
    await page.unroute(ASSIGNMENT);
    assert.ok(layout.toast.top >= 0 && layout.toast.bottom <= layout.height, `the toast shows on the screen: ${JSON.stringify(layout)}`);
    assert.ok(!overlap(layout.toast, layout.header), `the toast leaves the header's controls uncovered: ${JSON.stringify(layout)}`);
    assert.ok(!overlap(layout.toast, layout.composer), `the toast leaves the composer uncovered: ${JSON.stringify(layout)}`);
    assert.equal(layout.takesClicks, false, 'a click on the toast reaches what lies under it');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('keeps a chat toast above the on-screen keyboard at 390 px, following the visual viewport as it shrinks and scrolls', async () => {
    await useLanguage(page, 'en');
    const pane = await openWithRefusedAssignment(844);
    const meta = await page.locator('meta[name="viewport"]').getAttribute('content');
    assert.match(meta, /interactive-widget=resizes-content/, 'Chrome on Android shrinks the layout for the keyboard, so the composer stays above it');
    // A fresh toast each time (the one showing is marked old: the new one replaces it), without
    // scrolling the header's select into view, which would move the visual viewport.
    const toast = page.getByRole('alert').filter({ hasText: 'Assignment is down' }).and(page.locator(':not([data-old])'));
    const placement = async () => {
      await pane.getByRole('combobox', { name: 'Assignee' }).evaluate((select) => {
        for (const shown of document.querySelectorAll('.toast')) shown.setAttribute('data-old', '');
        select.value = '';
        select.dispatchEvent(new Event('change', { bubbles: true }));
      });
      await toast.waitFor();
      return toast.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const { offsetTop, height } = window.visualViewport;
        return { top: box.top, bottom: box.bottom, visibleTop: offsetTop, visibleBottom: offsetTop + height, composerTop: document.querySelector('.composer').getBoundingClientRect().top };
      });
    };
    const assertInView = (layout, where) => {
      assert.ok(layout.top >= layout.visibleTop - 0.5 && layout.bottom <= layout.visibleBottom + 0.5, `the toast shows in the visual viewport (${where}): ${JSON.stringify(layout)}`);
      assert.ok(layout.bottom <= layout.composerTop + 0.5, `the toast stays above the composer (${where}): ${JSON.stringify(layout)}`);
    };
    // Chromium on a desktop has no on-screen keyboard; a page zoom shrinks the visual viewport the
    // same way (the layout viewport, where fixed elements are placed, keeps its size).
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2 });
      await page.waitForFunction(() => window.visualViewport.height < window.innerHeight * 0.6);
      const shrunk = await placement();
      assert.ok(shrunk.composerTop > shrunk.visibleBottom, `the composer is out of view below, as under a keyboard: ${JSON.stringify(shrunk)}`);
      assertInView(shrunk, 'the visual viewport shrunk');
      await page.mouse.move(20, 20);
      await page.mouse.wheel(0, 300);
      await page.waitForFunction(() => window.visualViewport.offsetTop > 100);
      assertInView(await placement(), 'the visual viewport scrolled down');
      await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
      await page.waitForFunction(() => window.visualViewport.height === window.innerHeight);
      const restored = await placement();
      assertInView(restored, 'the keyboard closed');
      assert.ok(restored.composerTop - restored.bottom < 20, `the toast is back just above the composer: ${JSON.stringify(restored)}`);
    } finally {
      await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 });
      await cdp.detach();
      await page.unroute(ASSIGNMENT);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('keeps the list inside the screen while message hits show at 390 px, long names and snippets cut with an ellipsis, in English and Arabic', async () => {
    await injectMessage(tokens, LATIN.phone, LATIN.name, { text: `Hello again: ${'the parcel with the blue ribbon has still not arrived, '.repeat(4)}` });
    for (const language of ['en', 'ar']) {
      await useLanguage(page, language);
      await page.setViewportSize({ width: 390, height: 800 });
      await page.getByRole('searchbox').fill('hello');
      const hits = page.getByRole('region', { name: /^(Messages|الرسائل)$/ }).getByRole('button');
      await hits.filter({ hasText: 'ribbon' }).waitFor();
      await hits.filter({ hasText: ARABIC.name }).waitFor();
      const layout = await page.evaluate(() => {
        const rect = (element) => element.getBoundingClientRect().toJSON();
        const cut = (element) => ({ ...rect(element), cut: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight, overflow: getComputedStyle(element).textOverflow });
        return {
          width: window.innerWidth,
          scrollWidth: document.documentElement.scrollWidth,
          sidebar: rect(document.querySelector('.sidebar')),
          header: [...document.querySelectorAll('.sidebar-header > *, .sidebar .search')].map((element) => ({ ...rect(element), name: element.getAttribute('aria-label') ?? element.className })),
          hits: [...document.querySelectorAll('.message-search-hit')].map((hit) => ({ ...rect(hit), text: hit.innerText.slice(0, 40), name: cut(hit.querySelector('.message-search-name')), snippet: cut(hit.querySelector('.message-search-snippet')) })),
        };
      });
      const where = `${language} at 390 px`;
      assert.ok(layout.scrollWidth <= layout.width, `the page does not scroll sideways (${where}): ${layout.scrollWidth} px`);
      assert.ok(layout.sidebar.left >= 0 && layout.sidebar.right <= layout.width + 0.5, `the list fits the screen (${where}): ${JSON.stringify(layout.sidebar)}`);
      for (const control of layout.header) assert.ok(control.left >= -0.5 && control.right <= layout.width + 0.5, `${control.name} shows whole (${where}): ${JSON.stringify(control)}`);
      const inside = (inner, outer) => inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
      for (const hit of layout.hits) {
        assert.ok(inside(hit, layout.sidebar), `the hit "${hit.text}" lies in the list (${where})`);
        for (const part of [hit.name, hit.snippet]) assert.ok(inside(part, hit), `the hit "${hit.text}" holds its name and snippet (${where}): ${JSON.stringify(hit)}`);
      }
      for (const customer of [LATIN, ARABIC]) {
        const hit = layout.hits.find((candidate) => candidate.text.includes(customer.name.slice(0, 10)));
        assert.ok(hit?.name.cut, `${customer.name} is longer than the row (${where})`);
        assert.equal(hit.name.overflow, 'ellipsis', `${customer.name} ends in an ellipsis (${where})`);
      }
      const long = layout.hits.find((hit) => hit.snippet.cut);
      assert.ok(long, `the long snippet is cut (${where})`);
      assert.equal(await hits.filter({ hasText: 'ribbon' }).locator('.message-search-snippet').evaluate((element) => getComputedStyle(element).webkitLineClamp), '2', `the long snippet ends in an ellipsis on its second line (${where})`);
      await page.getByRole('searchbox').fill('');
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await useLanguage(page, 'en');
  });

  it('keeps a wide picture inside its bubble and the screen at 390 px, the customer\'s and one sent', async () => {
    await useLanguage(page, 'en');
    await page.setViewportSize({ width: 390, height: 800 });
    // An 800 × 600 PNG, drawn by the browser.
    const png = Buffer.from(
      await page.evaluate(() => {
        const canvas = Object.assign(document.createElement('canvas'), { width: 800, height: 600 });
        canvas.getContext('2d').fillRect(0, 0, 800, 600);
        return canvas.toDataURL('image/png').split(',')[1];
      }),
      'base64',
    );
    const mediaId = await uploadAsCustomer(tokens, png, 'image/png', 'wide.png');
    await injectMessage(tokens, PICTURES.phone, PICTURES.name, { message: { type: 'image', image: { id: mediaId, mime_type: 'image/png' } } });
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${PICTURES.phone}`);
    const pane = page.getByRole('region', { name: PICTURES.name });
    await pane.getByRole('textbox').waitFor();
    await pane.locator('input[type=file]').first().setInputFiles({ name: 'sent.png', mimeType: 'image/png', buffer: png });
    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('.bubble img')].filter((image) => image.complete && image.naturalWidth === 800).length === 2);
    const pictures = await page.evaluate(() =>
      [...document.querySelectorAll('.bubble img')].map((image) => ({
        image: image.getBoundingClientRect().toJSON(),
        bubble: image.closest('.bubble').getBoundingClientRect().toJSON(),
        outgoing: image.closest('.bubble').classList.contains('outgoing'),
      })),
    );
    for (const { image, bubble, outgoing } of pictures) {
      const where = `${outgoing ? 'sent' : 'the customer’s'}: ${JSON.stringify({ image, bubble })}`;
      assert.ok(image.left >= bubble.left - 0.5 && image.right <= bubble.right + 0.5, `the picture lies inside its bubble (${where})`);
      assert.ok(bubble.left >= 0 && bubble.right <= 390.5, `the bubble lies inside the screen (${where})`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("keeps an order item's quantity and price on one line beside a long product id at 390 px", async () => {
    await useLanguage(page, 'en');
    await page.setViewportSize({ width: 390, height: 800 });
    const item = { product_retailer_id: 'sku-very-long-identifier-000123', quantity: 2, item_price: 19.99, currency: 'SAR' };
    await injectMessage(tokens, ORDER.phone, ORDER.name, { message: { type: 'order', order: { catalog_id: 'c1', product_items: [item] } } });
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${ORDER.phone}`);
    const price = page.getByRole('region', { name: ORDER.name }).locator('.order-card li > :last-child');
    await price.waitFor();
    const lines = await price.evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return { text: element.textContent, tops: new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size };
    });
    assert.equal(lines.tops, 1, `"${lines.text}" keeps to one line`);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
