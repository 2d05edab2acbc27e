// Team work against the real server: two agents in two browsers share one customer. One takes the
// conversation, the other sees it move to that agent's name live, is asked before taking it over
// by sending, and they talk in notes; a resolved conversation reopens when the customer writes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiAs as api, createAgent, injectMessage, logIn, registerByApi, twoBrowsers } from './browser.mjs';

const phone = `1777${String(Date.now() % 1_000_000).padStart(6, '0')}`;
const CUSTOMER = 'Tara Team';

/** An agent of the owner's business, created through the API. */
/** Signs the agent in and opens the customer's conversation by its link. */
async function openConversation(context, account, phoneNumberId) {
  const page = await context.newPage();
  await logIn(page, account);
  await page.getByRole('img', { name: 'Live' }).waitFor();
  await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
  const pane = page.getByRole('region', { name: CUSTOMER });
  await pane.getByText('Can someone help me?').waitFor();
  return { page, pane };
}

describe('team inbox', () => {
  const browsers = twoBrowsers();

  it('takes, takes over by sending, notes, resolves and reopens on a customer message', async () => {
    const { tokens: owner } = await registerByApi();
    const kim = await createAgent(owner, 'Kim');
    const lou = await createAgent(owner, 'Lou');
    await injectMessage(owner, phone, CUSTOMER, { text: 'Can someone help me?' });
    const { phoneNumberId } = await api(owner, 'GET', '/api/config');

    const a = await openConversation(browsers.first.context, kim, phoneNumberId);
    const b = await openConversation(browsers.second.context, lou, phoneNumberId);

    // Each sees the other there.
    await a.page.getByRole('status', { name: 'Teammates in this conversation' }).filter({ hasText: 'Lou Agent is viewing' }).waitFor();

    // Kim takes it; Lou's list shows it under Kim's name without a reload, one fewer unassigned.
    // The sandbox's three simulated customers of a new business write in over a few seconds:
    // the counts are read once all four conversations are there.
    await b.page.getByRole('tab', { name: /^All\s*4$/ }).waitFor({ timeout: 20_000 });
    const unassigned = b.page.getByRole('tab', { name: /^Unassigned\s*\d+$/ });
    const before = Number((await unassigned.innerText()).match(/\d+/)[0]);
    await a.pane.getByRole('button', { name: 'Take' }).click();
    await a.pane.getByRole('button', { name: 'Release' }).waitFor();
    const rowForLou = b.page.getByRole('button', { name: CUSTOMER });
    await rowForLou.getByLabel('Assigned to Kim Agent').waitFor();
    await b.pane.getByText(/^Kim Agent took this conversation/).waitFor();
    await b.page.getByRole('tab', { name: new RegExp(`^Unassigned\\s*${before - 1}$`) }).waitFor();

    // Lou writes anyway: asked first, then the send takes the conversation over.
    const box = b.pane.getByRole('textbox', { name: 'Type a message' });
    await box.fill('Hi Tara, I can help.');
    await a.page.getByRole('status', { name: 'Teammates in this conversation' }).filter({ hasText: 'Lou Agent is typing…' }).waitFor();
    await box.press('Enter');
    const ask = b.page.getByRole('dialog', { name: 'Take over' });
    await ask.getByText('Assigned to Kim Agent. Take over and send?').waitFor();
    await ask.getByRole('button', { name: 'Take over and send' }).click();
    await b.pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Hi Tara, I can help.' }).waitFor();
    await b.pane.getByRole('button', { name: 'Release' }).waitFor();
    await a.page.getByRole('button', { name: CUSTOMER }).getByLabel('Assigned to Lou Agent').waitFor();
    await a.pane.getByRole('button', { name: 'Take' }).waitFor();

    // A note from Kim reaches Lou live, and never the customer.
    await a.pane.getByRole('radio', { name: 'Note' }).click();
    await a.pane.getByRole('textbox', { name: 'Team note, @ to mention' }).fill(`@${lou.username} she ordered twice`);
    await a.pane.getByRole('button', { name: 'Add note' }).click();
    await a.pane.getByRole('article', { name: 'Note by Kim Agent' }).filter({ hasText: 'she ordered twice' }).waitFor();
    await b.pane.getByRole('article', { name: 'Note by Kim Agent' }).filter({ hasText: 'she ordered twice' }).waitFor();
    await b.page.getByRole('status').filter({ hasText: 'Kim Agent mentioned you in a note' }).waitFor();
    assert.equal(await b.pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'she ordered twice' }).count(), 0);

    // Lou resolves: it leaves the open list; Kim sees the activity line.
    await b.pane.getByRole('button', { name: 'Resolve' }).click();
    await b.pane.getByRole('button', { name: 'Reopen' }).waitFor();
    await a.pane.getByText(/^Lou Agent resolved this conversation/).waitFor();
    await b.page.getByRole('button', { name: CUSTOMER }).waitFor({ state: 'detached' });

    // The customer writes again: the conversation is open once more, for both.
    await injectMessage(owner, phone, CUSTOMER, { text: 'One more thing…' });
    await b.pane.getByText('One more thing…').waitFor();
    await b.pane.getByRole('button', { name: 'Resolve' }).waitFor();
    await a.pane.getByRole('button', { name: 'Resolve' }).waitFor();
    await b.page.getByRole('button', { name: CUSTOMER }).waitFor();

    // At 390 px and right to left the header's actions stay in reach.
    await a.page.getByRole('button', { name: 'Settings' }).click();
    await a.page.getByRole('menuitem', { name: 'العربية' }).click();
    await a.page.setViewportSize({ width: 390, height: 800 });
    const arabicPane = a.page.getByRole('region', { name: CUSTOMER });
    await arabicPane.getByRole('button', { name: 'حل' }).waitFor();
    await arabicPane.getByRole('button', { name: 'العودة إلى المحادثات' }).waitFor();
    const box390 = await arabicPane.getByRole('group', { name: 'إجراءات المحادثة' }).boundingBox();
    assert.ok(box390 && box390.x >= 0 && box390.x + box390.width <= 390, 'the actions fit the screen');
    // Back to the list (the only screen at 390 px) to switch the language back.
    await arabicPane.getByRole('button', { name: 'العودة إلى المحادثات' }).click();
    await a.page.getByRole('button', { name: 'الإعدادات' }).click();
    await a.page.getByRole('menuitem', { name: 'English' }).click();
  });

  it('lets the owner choose round robin and a claim timeout', async () => {
    const { account } = await registerByApi();
    const page = await browsers.first.context.newPage();
    await logIn(page, account);
    await page.goto('/edit-profile');
    const section = page.getByRole('region', { name: 'Team assignment' });
    await section.getByLabel('New conversations').selectOption('round_robin');
    await section.getByLabel('Claim timeout in minutes (0 = off)').fill('45');
    await section.getByRole('button', { name: 'Save assignment settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Profile updated successfully.' }).waitFor();
    await page.reload();
    assert.equal(await section.getByLabel('New conversations').inputValue(), 'round_robin');
    assert.equal(await section.getByLabel('Claim timeout in minutes (0 = off)').inputValue(), '45');
    await page.close();
  });
});
