// The template library on /template against the real server and the sandbox: a template made
// there is listed with its live review status and a preview, and deleted through the provider;
// the library fits 390 px in Arabic with an English body read left to right; a sender form
// submitted incomplete focuses its first invalid field; a template with an image header sent from
// the chat shows its image there; and the chat's send-template dialog fits 390 px in Arabic, its
// English name and preview left to right, an unfilled variable readable on both themes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openCustomerConversation, openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { contrast } from './layout.mjs';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/**
 * Submits a MARKETING template through the API (body-only unless `components` say otherwise,
 * with `file` as a media header's example); the sandbox approves it shortly.
 */
async function createTemplate(tokens, name, { components = [{ type: 'BODY', text: 'Spring sale: 20% off' }], file } = {}) {
  const form = new FormData();
  form.set('template', JSON.stringify({ name, language: 'en_US', category: 'MARKETING', components }));
  if (file) form.set('file', new Blob([file], { type: 'image/png' }), 'example.png');
  const response = await fetch(`${BASE_URL}/api/create-template`, { method: 'POST', headers: { Authorization: `Bearer ${tokens.accessToken}` }, body: form });
  assert.equal(response.status, 200, await response.text());
}

async function listTemplates(tokens) {
  const response = await fetch(`${BASE_URL}/api/templates`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
  return response.json();
}

/** Waits for the sandbox's review, told by the list the server reads from it. */
async function waitForApproval(tokens, name) {
  for (;;) {
    const templates = await listTemplates(tokens);
    if (templates.some((template) => template.name === name && template.status === 'APPROVED')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether the text of `locator` ends to the right of where it starts (one line, read left to right). */
function runsLeftToRight(locator) {
  return locator.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.data.trim()) nodes.push(node);
    const charRect = (node, index) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      return range.getBoundingClientRect();
    };
    const first = nodes[0];
    const last = nodes.at(-1);
    const start = charRect(first, first.data.length - first.data.trimStart().length);
    const end = charRect(last, last.data.trimEnd().length - 1);
    return Math.abs(start.top - end.top) < 2 && end.left > start.left;
  });
}

describe('template library', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('lists a new template with its live status and preview, and deletes it', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const name = `spring_${Date.now().toString(36)}`;
    await createTemplate(tokens, name);
    await page.goto(`${BASE_URL}/template`);
    await page.getByRole('tab', { name: 'Library' }).click();
    await page.waitForURL('**/template?view=library');

    const card = page.getByRole('listitem', { name });
    await card.getByText('Spring sale: 20% off').waitFor();
    await card.getByText('en_US').waitFor();
    await card.getByText('APPROVED').waitFor({ timeout: 20_000 });

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('dialog', { name: `Delete ${name}?` }).getByRole('button', { name: 'Delete' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByText(`Template ${name} deleted`).waitFor();
    assert.ok(!(await listTemplates(tokens)).some((template) => template.name === name));
    await page.close();
  });

  it('fits 390 px in Arabic, right to left', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const components = [{ type: 'BODY', text: 'Order {{1}} ships {{2}}.', example: { body_text: [['A12', 'today']] } }];
    await createTemplate(tokens, `long_name_${Date.now().toString(36)}_for_a_narrow_screen_check`, { components });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    await page.goto(`${BASE_URL}/template?view=library`);
    await page.getByRole('button', { name: 'مزامنة من واتساب' }).waitFor();
    await page.getByRole('listitem').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    // The English body keeps its own order: the full stop ends it on the right.
    assert.ok(await runsLeftToRight(page.getByRole('listitem').first().getByText('Order {{1}} ships {{2}}.')), 'the body reads left to right');
    await page.close();
  });

  it('focuses the first invalid field of the sender form on submit and marks its border', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    const name = `notice_${Date.now().toString(36)}`;
    await createTemplate(tokens, name);
    await waitForApproval(tokens, name);
    await page.goto(`${BASE_URL}/sender`);
    const form = page.getByRole('form', { name: 'Template sender' });
    await form.getByLabel('Template').selectOption({ label: `${name} (en_US)` });
    await form.getByRole('button', { name: 'Send Message' }).click();
    const number = form.getByLabel('Phone number');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.equal(await number.evaluate((element) => element === document.activeElement), true);
    // Marked by its border as well, in the theme's danger colour.
    const [border, danger] = await number.evaluate((element) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--danger)';
      document.body.append(probe);
      const colours = [getComputedStyle(element).borderTopColor, getComputedStyle(probe).color];
      probe.remove();
      return colours;
    });
    assert.equal(border, danger);
    await page.close();
  });

  it('sends a template with an image header from the chat and shows the image in the pane', async () => {
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: 'Nora Haddad', phone: '15550104477', text: 'Anything new?' });
    const name = `arrivals_${Date.now().toString(36)}`;
    const components = [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'New arrivals are in' }];
    await createTemplate(tokens, name, { components, file: PNG });
    await waitForApproval(tokens, name);

    await pane.getByRole('button', { name: 'Send template' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'Send a template' });
    await dialog.getByLabel('Template').selectOption({ label: `${name} (en_US)` });
    await dialog.getByLabel('Header image (JPEG or PNG)').setInputFiles({ name: 'arrivals.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    const bubble = pane.getByRole('article').filter({ hasText: 'New arrivals are in' });
    const image = bubble.getByRole('img', { name: 'Image' });
    await image.waitFor();
    assert.equal(await image.evaluate((element) => element.decode().then(() => element.naturalWidth)), 1);
    await page.close();
  });

  it('fits the send-template dialog of a location template into 390 px in Arabic, right to left', async () => {
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: 'Omar Saleh', phone: '15550104478', text: 'Where are you?' });
    const name = `visit_${Date.now().toString(36)}`;
    const components = [
      { type: 'HEADER', format: 'LOCATION' },
      { type: 'BODY', text: 'Hi {{1}}, find us here.', example: { body_text: [['Omar']] } },
    ];
    await createTemplate(tokens, name, { components });
    await waitForApproval(tokens, name);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });

    await pane.getByRole('button', { name: 'إرسال قالب' }).last().click();
    const dialog = page.getByRole('dialog', { name: 'إرسال قالب' });
    await dialog.getByLabel('القالب').selectOption({ label: `${name} (en_US)` });
    await dialog.getByLabel('خط العرض').fill('30.0444');
    const fits = await dialog.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return element.scrollWidth <= element.clientWidth && box.left >= 0 && box.right <= window.innerWidth;
    });
    assert.ok(fits, 'the dialog is wider than the screen');
    assert.equal(await dialog.evaluate((element) => getComputedStyle(element).direction), 'rtl');
    // The English template reads left to right inside it: its name in the list and its preview.
    assert.equal(await dialog.getByLabel('القالب').locator('option:checked').evaluate((option) => getComputedStyle(option).direction), 'ltr');
    const preview = dialog.getByRole('complementary').locator('.message-text');
    assert.ok(await runsLeftToRight(preview), 'the preview reads left to right');
    // The unfilled variable is readable on the bubble in both themes (WCAG AA, 4.5:1).
    for (const theme of ['dark', 'light']) {
      await page.evaluate((value) => (document.documentElement.dataset.theme = value), theme);
      const colours = await preview.locator('.sender-missing').first().evaluate((mark) => ({
        text: getComputedStyle(mark).color,
        bubble: getComputedStyle(mark.closest('.sender-bubble')).backgroundColor,
      }));
      const ratio = contrast(colours.text, colours.bubble);
      assert.ok(ratio >= 4.5, `the missing variable has ${ratio.toFixed(2)}:1 on the ${theme} bubble (${JSON.stringify(colours)})`);
    }
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    await page.close();
  });
});
