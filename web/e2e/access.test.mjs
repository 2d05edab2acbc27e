// Sign-up, sign-in, sign-out, remember-me, route protection and the social-login return.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, logIn, newAccount, registerByApi, startBrowser, stored } from './browser.mjs';

describe('access', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  const freshPage = async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await page.goto('/login');
    await page.evaluate(() => localStorage.clear());
    return page;
  };

  it('registers through the form, suggesting and normalising the username', async () => {
    const page = await freshPage();
    const account = newAccount();
    await page.goto('/register');
    await page.getByLabel('First name').fill('Mary Ann');
    await page.getByLabel('First name').blur();
    assert.equal(await page.getByLabel('Username').inputValue(), 'maryann');
    await page.getByLabel('Last name').fill('Smith');
    await page.getByLabel('Username').fill('');
    await page.getByLabel('Username').pressSequentially(`  ${account.username.toUpperCase()} `);
    assert.equal(await page.getByLabel('Username').inputValue(), account.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm password').fill('something-else');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match' }).waitFor();
    assert.match(page.url(), /\/register$/);

    await page.getByLabel('Confirm password').fill(account.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/whatsapp');
    await page.getByRole('heading', { name: 'Welcome to Parley' }).waitFor();
    assert.ok(await stored(page, 'refreshToken'));
    assert.equal(await stored(page, 'userRole'), 'admin');
    await page.close();
  });

  it('shows the server message for bad credentials, then signs in and out', async () => {
    const page = await freshPage();
    const { account } = await registerByApi();
    await page.getByLabel('Email or username').fill(account.username);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor();

    await logIn(page, account);
    // The production bundle's WebSocket connects (react-use-websocket import trap).
    await page.getByRole('img', { name: 'Live' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL('**/login');
    assert.equal(await stored(page, 'refreshToken'), null);
    assert.equal(await stored(page, 'accessToken'), null);

    // History was replaced and protected routes now send to /login.
    await page.goto('/whatsapp');
    await page.waitForURL('**/login');
    await page.close();
  });

  it("says in Arabic what the server refused and what a field lacks, never the server's English", async () => {
    const page = await freshPage();
    const { account } = await registerByApi();
    await page.getByRole('button', { name: 'العربية' }).click();
    await page.getByRole('heading', { name: 'تسجيل الدخول إلى Parley' }).waitFor();
    await page.getByLabel('البريد الإلكتروني أو اسم المستخدم').fill(account.username);
    await page.getByLabel('كلمة المرور').fill('wrong-password');
    await page.getByRole('button', { name: 'تسجيل الدخول', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'اسم المستخدم أو كلمة المرور غير صحيحة.' }).waitFor();

    // The browser's own check of a required field speaks the app's language.
    await page.goto('/register');
    const create = page.getByRole('button', { name: 'إنشاء حساب', exact: true });
    await create.click();
    assert.equal(await page.getByLabel('الاسم الأول').evaluate((input) => input.validationMessage), 'يرجى ملء هذا الحقل.');
    await page.getByLabel('الاسم الأول').fill('Ann');
    await page.getByLabel('اسم العائلة').fill('Lee');
    await page.getByLabel('اسم المستخدم').fill(account.username);
    await page.getByLabel('البريد الإلكتروني').fill(`other.${account.email}`);
    await page.getByLabel('كلمة المرور', { exact: true }).fill(account.password);
    await page.getByLabel('تأكيد كلمة المرور').fill(account.password);
    await create.click();
    const taken = page.getByRole('alert').filter({ hasText: 'اسم المستخدم هذا مستخدم بالفعل.' });
    await taken.waitFor();
    assert.doesNotMatch(await taken.textContent(), /[A-Za-z]/);
    // The next pages of this browser start in English again.
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.close();
  });

  it('sends every other device of the account to the sign-in page when it signs out everywhere', async () => {
    const laptop = await browser.context.newPage();
    const { account } = await registerByApi();
    await logIn(laptop, account);
    await laptop.getByRole('img', { name: 'Live' }).waitFor();
    const phone = await startBrowser();
    try {
      const page = await phone.context.newPage();
      await logIn(page, account);
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
      await page.waitForURL('**/login');
    } finally {
      await phone.close();
    }
    // The laptop was left open on the inbox: its live stream is closed and it signs out too.
    await laptop.waitForURL('**/login');
    assert.equal(await stored(laptop, 'refreshToken'), null);
    await laptop.close();
  });

  it('takes every other tab of the browser to the sign-in page when one signs out', async () => {
    const page = await freshPage();
    const { account } = await registerByApi();
    await logIn(page, account);
    const otherTab = await browser.context.newPage();
    await otherTab.goto('/whatsapp');
    await otherTab.getByRole('img', { name: 'Live' }).waitFor();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await page.waitForURL('**/login');
    await otherTab.waitForURL('**/login');
    await Promise.all([page.close(), otherTab.close()]);
  });

  it('remembers the username when asked and forgets it when unticked', async () => {
    const page = await freshPage();
    const { account } = await registerByApi();
    await page.getByLabel('Email or username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByLabel('Remember me').check();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL('**/whatsapp');
    assert.equal(await stored(page, 'lastUsername'), account.username);

    await page.evaluate(() => {
      localStorage.removeItem('accessToken');
      localStorage.removeItem('refreshToken');
    });
    await page.goto('/login');
    assert.equal(await page.getByLabel('Email or username').inputValue(), account.username);
    assert.equal(await page.getByLabel('Remember me').isChecked(), true);
    await page.getByLabel('Remember me').uncheck();
    assert.equal(await stored(page, 'lastUsername'), null);
    await page.close();
  });

  it('lists the raw users answer on the test view', async () => {
    const page = await freshPage();
    const { account } = await registerByApi();
    await logIn(page, account);
    await page.goto('/test');
    await page.getByRole('button', { name: 'Get All Users' }).click();
    const answer = page.getByLabel('Server answer');
    await answer.filter({ hasText: '"data"' }).waitFor();
    await page.close();
  });

  it('stores tokens from the social-login return and cleans the URL', async () => {
    const page = await freshPage();
    const { tokens } = await registerByApi();
    const query = new URLSearchParams({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, role: 'admin' });
    await page.goto(`/login?${query}`);
    await page.waitForURL(`${BASE_URL}/whatsapp`);
    assert.equal(await stored(page, 'refreshToken'), tokens.refreshToken);
    assert.equal(await stored(page, 'userRole'), 'admin');
    await page.close();
  });

  it('redirects conversation_id links to the chat page and clears the query', async () => {
    const page = await freshPage();
    const { account } = await registerByApi();
    await logIn(page, account);
    await page.goto('/somewhere/else?conversation_id=123_15550001111');
    await page.waitForURL(`${BASE_URL}/whatsapp`);
    await page.getByRole('region', { name: 'Unknown' }).waitFor();
    await page.close();
  });

  it('keeps Google sign-in disabled with a note when the server has no Google client', async () => {
    const page = await freshPage();
    const google = page.getByRole('button', { name: 'Sign in with Google' });
    await page.getByText('Google sign-in is not set up on this server.').waitFor();
    assert.equal(await google.isDisabled(), true);
    await page.close();
  });
});
