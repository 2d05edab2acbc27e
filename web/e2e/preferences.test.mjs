// Language (Arabic is right-to-left), theme, and the small-screen layout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { logIn, newAccount, openInboxAsNewOwner, registerByApi, startBrowser } from './browser.mjs';

const htmlAttribute = (page, name) => page.evaluate((attr) => document.documentElement.getAttribute(attr), name);

describe('preferences', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('switches the login page to Arabic, right to left, and keeps it', async () => {
    const page = await browser.context.newPage();
    await page.goto('/login');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    await page.getByRole('button', { name: 'العربية' }).click();
    await page.getByRole('heading', { name: 'تسجيل الدخول إلى Parley' }).waitFor();
    assert.equal(await htmlAttribute(page, 'dir'), 'rtl');
    assert.equal(await htmlAttribute(page, 'lang'), 'ar');
    await page.reload();
    await page.getByRole('heading', { name: 'تسجيل الدخول إلى Parley' }).waitFor();
    assert.equal(await htmlAttribute(page, 'dir'), 'rtl');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in to Parley' }).waitFor();
    assert.equal(await htmlAttribute(page, 'dir'), 'ltr');
    await page.close();
  });

  it('switches the theme and keeps it', async () => {
    const page = await browser.context.newPage();
    await page.goto('/login');
    assert.equal(await htmlAttribute(page, 'data-theme'), 'dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    assert.equal(await htmlAttribute(page, 'data-theme'), 'light');
    await page.reload();
    assert.equal(await htmlAttribute(page, 'data-theme'), 'light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    assert.equal(await htmlAttribute(page, 'data-theme'), 'dark');
    await page.close();
  });

  it('saves the language on the server when signed in', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/users/toggle-language') && r.ok());
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await saved;
    assert.equal(await htmlAttribute(page, 'dir'), 'rtl');
    await page.getByRole('heading', { name: 'مرحبًا بك في Parley' }).waitFor();
    // Another device starting in English adopts the profile's language after sign-in.
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.reload();
    await page.getByRole('heading', { name: 'مرحبًا بك في Parley' }).waitFor();
    await page.getByRole('button', { name: 'التبديل إلى السمة الفاتحة' }).click();
    await page.getByRole('button', { name: 'التبديل إلى السمة الداكنة' }).click();
    await page.getByRole('button', { name: 'الإعدادات' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
    await page.close();
  });

  it('keeps the language an account was made in', async () => {
    const page = await browser.context.newPage();
    await page.goto('/register');
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await page.getByRole('button', { name: 'العربية' }).click();
    const account = newAccount();
    const fields = { 'الاسم الأول': account.firstName, 'اسم العائلة': account.lastName, 'اسم المستخدم': account.username, 'البريد الإلكتروني': account.email, 'كلمة المرور': account.password, 'تأكيد كلمة المرور': account.password };
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    const profileRead = page.waitForResponse((response) => response.url().endsWith('/api/users/profile'));
    await page.getByRole('button', { name: 'إنشاء حساب' }).click();
    await page.waitForURL('**/whatsapp');
    // The inbox takes the profile's language once it read it: it stays in Arabic, and after a reload.
    await profileRead;
    await page.waitForTimeout(300);
    await page.getByRole('heading', { name: 'مرحبًا بك في Parley' }).waitFor();
    assert.equal(await htmlAttribute(page, 'dir'), 'rtl');
    await page.reload();
    await page.getByRole('heading', { name: 'مرحبًا بك في Parley' }).waitFor();
    assert.equal(await htmlAttribute(page, 'dir'), 'rtl');
    await page.close();
  });

  it('reverts the language when the server refuses', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.route('**/api/users/toggle-language', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"down","message":"down"}' }),
    );
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not update the language.' }).waitFor();
    assert.equal(await htmlAttribute(page, 'dir'), 'ltr');
    await page.close();
  });

  it('shows one pane at a time below 768 px', async () => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 800 });
    const { account } = await registerByApi();
    await logIn(page, account);
    await page.getByRole('searchbox', { name: 'Search name or number' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Welcome to Parley' }).count(), 0);
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
    await page.close();
  });
});
