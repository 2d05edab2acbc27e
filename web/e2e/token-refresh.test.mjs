// Expired access tokens are refreshed once and the work goes on, against a server whose access
// tokens live 3 seconds (PARLEY_SHORT_TTL_URL).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startBrowser, stored } from './browser.mjs';

const SHORT_TTL_URL = process.env.PARLEY_SHORT_TTL_URL;

describe('token expiry', { skip: !SHORT_TTL_URL && 'PARLEY_SHORT_TTL_URL is not set' }, () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('refreshes an expired token and retries the request', async () => {
    const page = await browser.context.newPage();
    // A stand-in socket that stays open: the live stream would otherwise refresh the token on its
    // own when the server closes it at expiry, racing the request under test.
    await page.routeWebSocket(/\/api\/ws/, () => undefined);
    await page.goto(`${SHORT_TTL_URL}/register`);
    const id = Date.now().toString(36);
    await page.getByLabel('First name').fill('Tess');
    await page.getByLabel('Last name').fill('Ttl');
    await page.getByLabel('Username').fill(`tess${id}`);
    await page.getByLabel('Email').fill(`tess${id}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await page.getByLabel('Confirm password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/whatsapp');
    const firstToken = await stored(page, 'accessToken');

    await page.goto(`${SHORT_TTL_URL}/test`);
    await page.getByRole('button', { name: 'Get All Users' }).waitFor();
    // Wait out the token's 3-second life.
    await page.waitForTimeout(4000);
    const refreshes = [];
    page.on('request', (request) => request.url().endsWith('/identity/auth/refresh') && refreshes.push(request));
    const expired = page.waitForResponse((r) => r.url().endsWith('/api/users') && r.status() === 403);
    await page.getByRole('button', { name: 'Get All Users' }).click();
    await expired;
    await page.getByLabel('Server answer').filter({ hasText: '"data"' }).waitFor();
    assert.equal(refreshes.length, 1);
    assert.notEqual(await stored(page, 'accessToken'), firstToken);
    assert.match(page.url(), /\/test$/);
    await page.close();
  });

  it('refreshes once for two tabs whose requests meet the expiry together, and both go on', async () => {
    const tabs = await startBrowser({ baseURL: SHORT_TTL_URL });
    try {
      const [first, second] = [await tabs.context.newPage(), await tabs.context.newPage()];
      await first.goto('/login');
      const id = Date.now().toString(36);
      const register = await first.request.post('/identity/auth/register', {
        data: { firstName: 'Two', lastName: 'Tabs', username: `two${id}`, email: `two${id}@example.com`, password: 'correct-horse-battery' },
      });
      const tokens = await register.json();
      await first.evaluate((t) => {
        localStorage.setItem('accessToken', t.accessToken);
        localStorage.setItem('refreshToken', t.refreshToken);
      }, tokens);
      for (const page of [first, second]) {
        // The live streams would refresh on their own at expiry; the requests under test race here.
        await page.routeWebSocket(/\/api\/ws/, () => undefined);
        await page.goto('/test');
        await page.getByRole('button', { name: 'Get All Users' }).waitFor();
      }
      // Wait out the token's 3-second life.
      await first.waitForTimeout(4000);
      // Refreshes are held until both tabs have met the expired token, so both could spend it.
      let bothExpired;
      const expiredSeen = new Promise((resolve) => (bothExpired = resolve));
      let expiredCount = 0;
      const refreshes = [];
      for (const page of [first, second]) {
        page.on('response', (r) => r.url().endsWith('/api/users') && r.status() === 403 && ++expiredCount === 2 && bothExpired());
      }
      await tabs.context.route('**/identity/auth/refresh', async (route) => {
        refreshes.push(route.request());
        await expiredSeen;
        await route.continue();
      });
      await Promise.all([first, second].map((page) => page.getByRole('button', { name: 'Get All Users' }).click()));
      for (const page of [first, second]) await page.getByLabel('Server answer').filter({ hasText: '"data"' }).waitFor();
      assert.equal(refreshes.length, 1);
      assert.notEqual(await stored(first, 'refreshToken'), tokens.refreshToken);
      assert.match(second.url(), /\/test$/);
    } finally {
      await tabs.close();
    }
  });

  it('signs out when the refresh token is refused', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${SHORT_TTL_URL}/login`);
    await page.evaluate(() => localStorage.clear());
    const id = Date.now().toString(36);
    const register = await page.request.post(`${SHORT_TTL_URL}/identity/auth/register`, {
      data: { firstName: 'Rex', lastName: 'Gone', username: `rex${id}`, email: `rex${id}@example.com`, password: 'correct-horse-battery' },
    });
    const tokens = await register.json();
    await page.evaluate((t) => {
      localStorage.setItem('accessToken', t.accessToken);
      localStorage.setItem('refreshToken', 'not-a-valid-refresh-token');
    }, tokens);
    await page.waitForTimeout(4000);
    await page.goto(`${SHORT_TTL_URL}/test`);
    await page.waitForURL('**/login');
    assert.equal(await stored(page, 'refreshToken'), null);
    await page.close();
  });
});

