// Labels against the real server: the owner creates a label on the profile page and puts it on a
// conversation; the chip shows on the row and in the header, the label filter narrows the list to
// it, and an agent in a second browser sees the chip arrive live.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiAs as api, createAgent, injectMessage, logIn, registerByApi, twoBrowsers, waitForPage } from './browser.mjs';

const phone = `1778${String(Date.now() % 1_000_000).padStart(6, '0')}`;
const CUSTOMER = 'Lena Label';

describe('labels', () => {
  const browsers = twoBrowsers();

  it('are made on the profile page, put on a conversation, shown, filtered by and seen live', async () => {
    const { account: ownerAccount, tokens: owner } = await registerByApi();
    const agent = await createAgent(owner, 'Ada');
    await injectMessage(owner, phone, CUSTOMER, { text: 'Where is my order?' });
    const { phoneNumberId } = await api(owner, 'GET', '/api/config');

    // The owner makes a label on the profile page.
    const page = await browsers.first.context.newPage();
    await logIn(page, ownerAccount);
    await page.goto('/edit-profile');
    const section = page.getByRole('region', { name: 'Labels' });
    await section.getByLabel('Label name').fill('VIP');
    await section.getByLabel('Colour', { exact: true }).fill('#fbca04');
    await section.getByRole('button', { name: 'Add label' }).click();
    await section.getByRole('form', { name: 'VIP' }).waitFor();

    // The agent watches the inbox in another browser.
    const agentPage = await browsers.second.context.newPage();
    await logIn(agentPage, agent);
    await agentPage.getByRole('img', { name: 'Live' }).waitFor();
    const agentRow = agentPage.getByRole('button', { name: CUSTOMER });
    await agentRow.waitFor();

    // The owner puts the label on the conversation from its header.
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
    await page.getByRole('img', { name: 'Live' }).waitFor();
    const pane = page.getByRole('region', { name: CUSTOMER });
    await pane.getByText('Where is my order?').waitFor();
    await pane.getByRole('button', { name: 'Labels' }).click();
    // The tick shows once the server has the label (the checklist follows the conversation).
    await pane.getByRole('checkbox', { name: 'VIP' }).click();
    await pane.getByRole('list', { name: 'Labels' }).getByText('VIP').waitFor();
    const row = page.getByRole('button', { name: CUSTOMER });
    await row.getByRole('list', { name: 'Labels' }).getByText('VIP').waitFor();

    // The agent's list shows the chip without a reload.
    await agentRow.getByRole('list', { name: 'Labels' }).getByText('VIP').waitFor();

    // The label filter leaves only the labelled conversation (the sandbox's simulated customers
    // of a new business have none).
    await page.getByRole('combobox', { name: 'Label filter' }).selectOption({ label: 'VIP' });
    await waitForPage(page, () => document.querySelectorAll('.conversation-row').length === 1);
    await row.waitFor();
    assert.equal(await page.locator('.conversation-row').count(), 1);
  });
});
