// The /template screen against the real server and the sandbox: a template with a text header
// variable, two body variables and every button type is built through the form, submitted, and
// its review status goes from PENDING to APPROVED on the screen without a reload (the sandbox
// approves after `sandbox.template_review_ms`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openInboxAsNewOwner, startBrowser } from './browser.mjs';

describe('template creation', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('creates a template with header and body variables and every button type, and sees it approved live', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Templates' }).click();
    await page.waitForURL('**/template');

    const form = page.getByRole('form', { name: 'Create a template' });
    const name = `Spring Sale ${Date.now().toString(36)}`;
    await form.getByLabel('Template name').fill(name);
    const expectedName = name.toLowerCase().replace(/ /g, '_');
    assert.equal(await form.getByLabel('Template name').inputValue(), expectedName);
    await form.getByLabel('Category').selectOption('MARKETING');
    assert.equal(await form.getByLabel('Language').inputValue(), 'en_US');

    const header = form.getByRole('group', { name: 'Header' });
    await header.getByLabel('Header type').selectOption('TEXT');
    await header.getByLabel('Header text').fill('Hello ');
    await header.getByRole('button', { name: 'Add header variable' }).click();
    assert.equal(await header.getByLabel('Header text').inputValue(), 'Hello {{1}}');
    await header.getByLabel('Example for {{1}}').fill('Sam');

    const body = form.getByRole('group', { name: 'Body' });
    const bodyText = body.getByLabel('Body text');
    await bodyText.fill('Your order ');
    await body.getByRole('button', { name: 'Add body variable' }).click();
    await bodyText.press('End');
    await bodyText.pressSequentially(' ships on ');
    await body.getByRole('button', { name: 'Add body variable' }).click();
    assert.equal(await bodyText.inputValue(), 'Your order {{1}} ships on {{2}}');
    await body.getByLabel('Example for {{1}}').fill('A-1001');
    await body.getByLabel('Example for {{2}}').fill('Monday');
    await form.getByLabel('Footer text').fill('Reply STOP to opt out');

    const addButton = async (type) => {
      await form.getByRole('button', { name: 'Add button' }).click();
      await page.getByRole('menuitem', { name: type }).click();
    };
    await addButton('Quick reply');
    await form.getByRole('group', { name: '1. Quick reply' }).getByLabel('Button text').fill('Yes please');
    await addButton('Visit website');
    const website = form.getByRole('group', { name: '2. Visit website' });
    await website.getByLabel('Button text').fill('Track order');
    await website.getByLabel('URL type').selectOption('dynamic');
    await website.getByLabel('Website URL').fill('https://example.com/track/');
    await website.getByLabel('URL example').fill('abc123');
    await addButton('Call phone number');
    const phone = form.getByRole('group', { name: '3. Call phone number' });
    await phone.getByLabel('Button text').fill('Call us');
    await phone.getByLabel('Country code').selectOption('+1');
    await phone.getByLabel('Phone number').fill('555 123-4567');
    await addButton('Copy offer code');
    await form.getByRole('group', { name: '4. Copy offer code' }).getByLabel('Offer code').fill('SAVE10');
    // A second phone button is over the limit: the alert says so and nothing is added.
    await addButton('Call phone number');
    await page.getByRole('alert').filter({ hasText: 'You have reached the limit of 1 for Call phone number buttons.' }).waitFor();
    assert.equal(await form.getByRole('group', { name: /^\d+\. / }).count(), 4);

    const preview = page.getByRole('complementary', { name: 'Preview' });
    await preview.getByText('Hello Sam').waitFor();
    await preview.getByText('Your order A-1001 ships on Monday').waitFor();
    assert.deepEqual(await preview.getByRole('listitem').allTextContents(), ['↩ Yes please', '↗ Track order', '✆ Call us', '❐ Copy offer code']);

    await form.getByRole('button', { name: 'Submit template' }).click();
    await form.getByText('Submitted for review.').waitFor();
    await form.getByText('Review status: PENDING').waitFor();
    await form.getByText('Review status: APPROVED').waitFor({ timeout: 20_000 });
    await page.getByRole('alert').waitFor({ state: 'detached' });
    await form.getByText('Review status: APPROVED').scrollIntoViewIfNeeded();

    // The server kept what the form sent, approved.
    const response = await fetch(`${BASE_URL}/api/templates`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    assert.equal(response.status, 200);
    const stored = (await response.json()).find((template) => template.name === expectedName);
    assert.equal(stored?.status, 'APPROVED');
    const components = Object.fromEntries(stored.components.map((component) => [component.type, component]));
    assert.deepEqual(components.HEADER, { type: 'HEADER', format: 'TEXT', text: 'Hello {{1}}', example: { header_text: ['Sam'] } });
    assert.deepEqual(components.BODY.example, { body_text: [['A-1001', 'Monday']] });
    assert.deepEqual(components.BUTTONS.buttons, [
      { type: 'QUICK_REPLY', text: 'Yes please' },
      { type: 'URL', text: 'Track order', url: 'https://example.com/track/{{1}}', example: ['abc123'] },
      { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15551234567' },
      { type: 'COPY_CODE', example: 'SAVE10' },
    ]);

    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.close();
  });

  it('shows the rules inline before sending, and discards back to the defaults', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.goto('/template');
    const form = page.getByRole('form', { name: 'Create a template' });
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/create-template')) sent += 1;
    });
    await form.getByRole('button', { name: 'Submit template' }).click();
    await form.getByRole('alert').filter({ hasText: 'Template name is required.' }).waitFor();
    await form.getByLabel('Template name').fill('welcome');
    await form.getByLabel('Category').selectOption('UTILITY');
    await form.getByLabel('Body text').fill('Hi there');
    await form.getByLabel('Header type').selectOption('IMAGE');
    await form.getByRole('alert').filter({ hasText: 'An image header needs a file.' }).waitFor();
    // A GIF is refused when chosen, whatever its name says.
    await form.getByLabel('Header file').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('GIF89a......') });
    await page.getByRole('alert').filter({ hasText: 'The header image must be a PNG or JPEG file.' }).waitFor();
    await form.getByText('No file chosen.').waitFor();
    await form.getByRole('button', { name: 'Submit template' }).click();
    assert.equal(sent, 0);

    await page.getByRole('button', { name: 'العربية' }).click();
    const arabic = page.getByRole('form', { name: 'إنشاء قالب' });
    await arabic.getByLabel('اسم القالب').fill('welcome');
    await arabic.getByLabel('نص الرسالة').fill('مرحبًا بك');
    // A web address, its example and a phone number read left to right, as typed and as hinted.
    for (const type of ['زيارة الموقع', 'الاتصال برقم هاتف']) {
      await arabic.getByRole('button', { name: 'إضافة زر' }).click();
      await page.getByRole('menuitem', { name: type }).click();
    }
    await arabic.getByLabel('نوع الرابط').selectOption('dynamic');
    for (const label of ['رابط الموقع', 'مثال للرابط', 'رقم الهاتف']) {
      assert.equal(await arabic.getByLabel(label, { exact: true }).evaluate((input) => getComputedStyle(input).direction), 'ltr', label);
    }
    await page.getByRole('button', { name: 'التبديل إلى السمة الفاتحة' }).click();
    await page.getByRole('button', { name: 'التبديل إلى السمة الداكنة' }).click();
    await arabic.getByRole('button', { name: 'تجاهل التغييرات' }).click();
    await page.getByRole('dialog', { name: 'تجاهل التغييرات؟' }).getByRole('button', { name: 'تجاهل التغييرات' }).click();
    assert.equal(await arabic.getByLabel('اسم القالب').inputValue(), '');
    assert.equal(await arabic.getByLabel('اللغة').inputValue(), 'en_US');
    assert.equal(await arabic.getByLabel('نوع الترويسة').inputValue(), 'NONE');
    await page.getByRole('button', { name: 'English' }).click();
    await page.close();
  });
});
