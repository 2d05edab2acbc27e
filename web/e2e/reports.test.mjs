// Reports against the real server: an owner whose agent answered a customer opens /reports from
// the settings menu, sees both charts drawn with their legends and the agent in the team table,
// and downloads the CSV; the agent is turned away from the page.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, logIn, newAccount, registerByApi, startBrowser } from './browser.mjs';

const phone = `1778${String(Date.now() % 1_000_000).padStart(6, '0')}`;

async function api(token, method, path, body) {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }) },
    body: body instanceof FormData || body === undefined ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

describe('reports', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('draws the charts, lists the agent and downloads the CSV', async () => {
    const { account: ownerAccount, tokens: owner } = await registerByApi();
    const agent = { ...newAccount(), firstName: 'Rae', lastName: 'Agent' };
    await api(owner.accessToken, 'POST', '/identity/users/agents', agent);
    await injectMessage(owner, phone, 'Rita Report', { text: 'Is my order on its way?' });
    const session = await api('', 'POST', '/identity/auth/login', { emailOrUsername: agent.username, password: agent.password });
    const form = new FormData();
    form.set('to', phone);
    form.set('message_id', `report-${phone}`);
    form.set('message_type', 'text');
    form.set('text', 'Yes, it ships today.');
    await api(session.accessToken, 'POST', '/api/send-message', form);

    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, ownerAccount);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Reports' }).click();
    await page.waitForURL('**/reports');

    for (const [name, series] of [
      ['Conversations', ['Conversations opened', 'Conversations resolved']],
      ['Messages', ['Messages received', 'Messages sent']],
    ]) {
      const chart = page.getByRole('region', { name, exact: true });
      const canvas = chart.locator('canvas');
      await canvas.waitFor();
      const box = await canvas.boundingBox();
      assert.ok(box && box.width > 0 && box.height > 0, `${name} chart has a size`);
      for (const label of series) await chart.locator('.u-legend').getByText(label).waitFor();
    }
    const team = page.getByRole('region', { name: 'Team' });
    const row = team.getByRole('row', { name: /Rae Agent/ });
    await row.waitFor();
    assert.match(await row.innerText(), /Rae Agent\s+1\s/);
    // The page fits a phone's width.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    assert.match(download.suggestedFilename(), /^parley-report-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv$/);
    const text = await readFile(await download.path(), 'utf8');
    assert.equal(text.split('\n')[0], 'start,conversations_opened,conversations_resolved,messages_in,messages_out,first_response_median_secs,first_response_p90_secs,resolution_median_secs,resolution_p90_secs');
    assert.match(text, /,Rae Agent,1,/);

    // In Arabic the page turns right to left, the charts keep their legends and it still fits.
    await page.goto('/whatsapp');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.goto('/reports');
    await page.getByRole('heading', { name: 'التقارير' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    const arabicChart = page.getByRole('region', { name: 'المحادثات', exact: true });
    await arabicChart.locator('.u-legend').getByText('المحادثات المفتوحة').waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
    await arabicChart.scrollIntoViewIfNeeded();
    await page.close();

    // The agent has no Reports entry and is turned away from the page.
    const agentPage = await browser.context.newPage();
    await logIn(agentPage, agent);
    await agentPage.getByRole('button', { name: 'Settings' }).click();
    assert.equal(await agentPage.getByRole('menuitem', { name: 'Reports' }).count(), 0);
    await agentPage.keyboard.press('Escape');
    await agentPage.goto('/reports');
    await agentPage.waitForURL('**/unauthorized');
    // Its heading, words and link stand together in the middle of the screen.
    const heading = await agentPage.getByRole('heading', { name: 'Not allowed' }).boundingBox();
    const link = await agentPage.getByRole('link', { name: 'Sign in' }).boundingBox();
    assert.ok(link.y + link.height - heading.y < 200, `heading at ${heading.y} px, link at ${link.y} px`);
    // A signed-in agent also has the way back to the inbox.
    await agentPage.getByRole('link', { name: 'Back to the inbox' }).click();
    await agentPage.waitForURL('**/whatsapp');
    await agentPage.getByRole('img', { name: 'Live' }).waitFor();
    await agentPage.close();
  });

  it('rings a date input focused by keyboard, its calendar button included, as the other inputs, in both themes', async () => {
    const { account } = await registerByApi();
    const page = await browser.context.newPage();
    await logIn(page, account);
    for (const theme of ['dark', 'light']) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      await page.goto('/reports');
      const from = page.getByLabel('From');
      await from.focus();
      const ring = () =>
        page.evaluate(() => {
          const field = document.activeElement;
          const style = getComputedStyle(field);
          return { label: field.labels?.[0]?.textContent, keyboard: field.matches(':focus-visible'), outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}` };
        });
      const onDate = await ring();
      assert.equal(onDate.keyboard, true);
      assert.match(onDate.outline, /^auto 1px /, `${theme}: a date part has the browser's ring`);
      // Tab walks the date's parts, then reaches its calendar button, still inside the input.
      let onButton = onDate;
      for (let step = 0; step < 5 && onButton.keyboard; step += 1) {
        await page.keyboard.press('Tab');
        onButton = await ring();
      }
      assert.deepEqual(onButton, { ...onDate, keyboard: false }, `${theme}: the calendar button keeps the ring`);
    }
    await page.close();
  });
});
