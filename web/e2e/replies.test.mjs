// The automated replies manager against the real server and the sandbox: replies built in the
// form (a two-step button flow, and a default reply whose button is linked to the trigger reply)
// answer simulated customers, and the answers show up in the inbox conversation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openInboxAsNewOwner, startBrowser } from './browser.mjs';

/** A simulated customer writes in through the sandbox (a text, or a raw message object). */
async function inject(tokens, from, body) {
  const response = await fetch(`${BASE_URL}/sandbox/customers/inject`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}` },
    body: JSON.stringify({ from, name: 'Eva Flow', ...body }),
  });
  assert.equal(response.status, 200, await response.text());
}

describe('automated replies', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
    // Granted, so the inbox's "notifications are blocked" notice stays out of the way.
    await browser.context.grantPermissions(['notifications']);
  });
  after(async () => {
    await browser.close();
  });

  it('builds a two-step button flow and a default reply that answer customers in the inbox', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Automated replies' }).click();
    await page.waitForURL('**/automated-replies');
    await page.getByText('No automated replies yet.').waitFor();

    // The trigger reply: text and one button that opens a flow step of its own.
    await page.getByRole('button', { name: 'Add new reply' }).click();
    const form = page.getByRole('form', { name: 'New reply' });
    await form.getByLabel('Trigger').fill('hello');
    // Media attaches with a preview and can be removed again. The image: a 240×135 PNG of the page.
    const picture = await page.screenshot({ clip: { x: 220, y: 10, width: 240, height: 135 } });
    await form.getByLabel('Attach media').setInputFiles({ name: 'menu.png', mimeType: 'image/png', buffer: picture });
    await page.waitForFunction(() => document.querySelector('.media-preview img')?.naturalWidth === 240);
    await form.getByLabel('Caption (optional)').waitFor();
    await form.getByRole('button', { name: 'Remove media' }).click();
    await form.getByLabel('Response text').fill('Hi! How can we help?');
    const button = form.getByRole('group', { name: 'Button 1', exact: true });
    await button.getByLabel('Title').fill('Prices');
    await button.getByLabel('ID', { exact: true }).fill('prices');
    await button.getByRole('button', { name: 'Add flow step' }).click();
    // The step answers with an image and a caption.
    const step = form.getByRole('region', { name: 'Flow step “prices”' });
    await step.getByLabel('Attach media').setInputFiles({ name: 'price-list.png', mimeType: 'image/png', buffer: picture });
    await step.getByLabel('Caption (optional)').fill('Our prices start at 5 EUR.');
    await form.getByRole('button', { name: 'Save reply' }).click();
    const hello = page.getByRole('article', { name: 'hello' });
    await hello.getByText('1 flow step').waitFor();
    await hello.getByText('Active', { exact: true }).waitFor();
    assert.equal(await page.getByRole('form').count(), 0);

    // The default reply answers what nothing else matches.
    await page.getByRole('button', { name: 'Add new reply' }).click();
    await form.getByLabel('Trigger').fill('fallback');
    await form.getByLabel('Response text').fill('Sorry, type hello to start.');
    await form.getByLabel(/^Default reply/).check();
    // Its button opens the trigger reply: linked, so it gets no flow step of its own.
    const start = form.getByRole('group', { name: 'Button 1', exact: true });
    await start.getByLabel('Title').fill('Start');
    await start.getByLabel('Link to reply').selectOption('hello');
    assert.equal(await start.getByLabel('ID', { exact: true }).inputValue(), 'hello');
    await start.getByText('This button opens the reply “hello”.').waitFor();
    assert.equal(await start.getByRole('button', { name: 'Add flow step' }).count(), 0);
    await form.getByRole('button', { name: 'Save reply' }).click();
    await page.getByRole('article', { name: 'fallback' }).getByText('Default', { exact: true }).waitFor();

    // Editing reads the flow step back; a second click on Edit closes the form.
    await hello.getByRole('button', { name: 'Edit hello' }).click();
    const editing = page.getByRole('form', { name: 'Edit reply' });
    await editing.getByRole('button', { name: 'Edit flow step' }).click();
    const storedStep = editing.getByRole('region', { name: 'Flow step “prices”' });
    assert.equal(await storedStep.getByLabel('Caption (optional)').inputValue(), 'Our prices start at 5 EUR.');
    // The stored image is fetched with the session's token for the preview.
    await storedStep.getByRole('img', { name: 'Media preview' }).waitFor();
    await page.waitForFunction(() => document.querySelector('.step-editor .media-preview img')?.naturalWidth === 240);
    await editing.evaluate((element) => element.scrollIntoView());
    await hello.getByRole('button', { name: 'Edit hello' }).click();
    await editing.waitFor({ state: 'detached' });

    // A customer types the trigger, presses the button, then writes something else.
    const phone = `1777${String(Date.now() % 1_000_000).padStart(6, '0')}`;
    await inject(tokens, phone, { text: 'Hello' });
    await page.goto('/whatsapp');
    await page.getByRole('button', { name: 'Eva Flow' }).click();
    const pane = page.getByRole('region', { name: 'Eva Flow' });
    const answers = pane.getByRole('article', { name: 'Your message' });
    await answers.filter({ hasText: 'Hi! How can we help?' }).waitFor();

    await inject(tokens, phone, {
      message: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'prices', title: 'Prices' } } },
    });
    // The step's image arrives with its caption and loads (fetched with the session's token).
    const image = answers.filter({ hasText: 'Our prices start at 5 EUR.' }).locator('img');
    await image.waitFor();
    assert.equal(await image.evaluate((img) => img.decode().then(() => img.naturalWidth)), 240);

    await inject(tokens, phone, { text: 'What are your opening hours?' });
    await answers.filter({ hasText: 'Sorry, type hello to start.' }).waitFor();

    // The default reply's button is linked to "hello": pressing it answers as the trigger does.
    await inject(tokens, phone, {
      message: { type: 'interactive', interactive: { type: 'button_reply', button_reply: { id: 'hello', title: 'Start' } } },
    });
    await answers.filter({ hasText: 'Hi! How can we help?' }).nth(1).waitFor();
    assert.equal(await answers.count(), 4);

    // The list in Arabic on the light theme.
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.getByRole('button', { name: 'التبديل إلى السمة الفاتحة' }).click();
    await page.goto('/automated-replies');
    await page.getByRole('heading', { name: 'الردود التلقائية' }).waitFor();
    await page.getByRole('article', { name: 'fallback' }).getByText('افتراضي', { exact: true }).waitFor();

    // Delete after confirming.
    await page.getByRole('button', { name: 'حذف fallback' }).click();
    await page.getByRole('dialog', { name: 'حذف الرد' }).getByRole('button', { name: 'حذف', exact: true }).click();
    await page.getByRole('article', { name: 'fallback' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('article').count(), 1);
    await page.close();
  });
});
