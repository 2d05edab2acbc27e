// The /edit-profile page against the real server: the owner saves the profile (then the inbox at
// /dashboard) and manages agents, and an agent signs in, sees neither the credentials nor the agent
// controls, and goes back to the inbox.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, logIn, newAccount, openInboxAsNewOwner, startBrowser, stored } from './browser.mjs';

describe('profile and agents', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('lets the owner edit the profile and manage agents, and hides agent controls from an agent', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'Edit profile' }).click();
    await page.waitForURL('**/edit-profile');

    // The profile: names and a credential, saved; the page then goes to /dashboard (the inbox) after 2 s.
    const profile = page.getByRole('region', { name: 'Your profile' });
    await profile.getByLabel('First name').fill('Annabel');
    await profile.getByLabel('App ID').fill('app-4242');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile updated successfully.' }).waitFor();
    assert.match(page.url(), /\/edit-profile$/);
    await page.waitForURL('**/dashboard', { timeout: 5000 });
    await page.getByRole('button', { name: 'Settings' }).waitFor();

    await page.goto('/edit-profile');
    await profile.getByLabel('First name').and(page.locator('[value="Annabel"]')).waitFor();
    assert.equal(await profile.getByLabel('App ID').inputValue(), 'app-4242');

    // Two agents through the form.
    const agents = page.getByRole('region', { name: 'Agents' });
    const kept = newAccount();
    const dropped = newAccount();
    for (const [first, agent] of [['Kim', kept], ['Dev', dropped]]) {
      const form = agents.getByRole('form', { name: 'Add an agent' });
      await form.getByLabel('First name').fill(first);
      await form.getByLabel('Last name').fill('Agent');
      await form.getByLabel('Username').fill(agent.username);
      assert.equal(await form.getByLabel('Email').getAttribute('type'), 'email');
      await form.getByLabel('Email').fill(agent.email);
      await form.getByLabel('Password').fill(agent.password);
      await form.getByRole('button', { name: 'Create agent' }).click();
      await page.getByRole('status').filter({ hasText: 'Agent created successfully.' }).last().waitFor();
      await agents.getByRole('listitem', { name: `${first} Agent` }).waitFor();
    }

    // Edit one with the password left blank, delete the other after confirming.
    await agents.getByRole('button', { name: 'Edit Kim Agent' }).click();
    const edit = agents.getByRole('form', { name: 'Edit agent' });
    assert.equal(await edit.getByLabel('Password').inputValue(), '');
    await edit.getByLabel('First name').fill('Kimberly');
    await edit.getByRole('button', { name: 'Update agent' }).click();
    await page.getByRole('status').filter({ hasText: 'Agent updated successfully.' }).waitFor();
    await agents.getByRole('listitem', { name: 'Kimberly Agent' }).waitFor();

    await agents.getByRole('button', { name: 'Delete Dev Agent' }).click();
    await page.getByRole('dialog', { name: 'Delete agent' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Agent deleted successfully.' }).waitFor();
    await agents.getByRole('listitem', { name: 'Dev Agent' }).waitFor({ state: 'detached' });
    assert.equal(await agents.getByRole('listitem').count(), 1);
    await page.getByRole('status').filter({ hasText: 'Agent deleted successfully.' }).waitFor({ state: 'detached' });
    await page.evaluate(() => window.scrollTo(0, 0));

    // The kept agent signs in with the unchanged password and sees only the own profile.
    await logIn(page, kept);
    assert.equal(await stored(page, 'userRole'), 'agent');
    await page.goto('/edit-profile');
    const own = page.getByRole('region', { name: 'Your profile' });
    await own.getByLabel('First name').and(page.locator('[value="Kimberly"]')).waitFor();
    await page.getByRole('link', { name: /Back to the inbox/ }).waitFor();
    assert.equal(await page.getByRole('region', { name: 'Agents' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Create agent' }).count(), 0);
    assert.equal(await page.getByLabel('Phone number ID').count(), 0);
    // Back to the inbox, at the spec's /dashboard.
    await page.getByRole('link', { name: /Back to the inbox/ }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: 'Settings' }).waitFor();
    await page.close();
  });

  it("shows this device's notifications: on while allowed until turned off here, blocked with no button once the browser refuses", async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.setViewportSize({ width: 390, height: 844 });
    const cdp = await browser.context.newCDPSession(page);
    const permit = (setting) => cdp.send('Browser.setPermission', { permission: { name: 'notifications' }, setting, origin: new URL(BASE_URL).origin });
    const row = page.getByRole('region', { name: 'Notifications' });

    await permit('granted');
    await page.goto('/edit-profile');
    await row.getByRole('status').filter({ hasText: 'On' }).waitFor();
    await row.getByRole('button', { name: 'Turn off' }).click();
    await row.getByRole('status').filter({ hasText: 'Off' }).waitFor();
    await row.getByRole('button', { name: 'Turn on' }).waitFor();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390));
    // Turned off here, it stays off when the app starts again.
    await page.reload();
    await row.getByRole('status').filter({ hasText: 'Off' }).waitFor();

    await permit('denied');
    await page.reload();
    await row.getByRole('status').filter({ hasText: 'Blocked by the browser' }).waitFor();
    await row.getByText('Allow notifications for this site').waitFor();
    assert.equal(await row.getByRole('button').count(), 0);
    await permit('prompt');
    await page.close();
  });
});
