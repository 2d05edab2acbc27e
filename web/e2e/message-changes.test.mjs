// A customer edits one message and deletes another for everyone (webhook `edit` and `revoke`
// messages): the open conversation updates live, the edit is labelled, the deleted message shows
// only that it was deleted, and both stay so after a reload.
import { after, before, describe, it } from 'node:test';
import { injectMessage, openCustomerConversation, startBrowser } from './browser.mjs';

let phoneCounter = 0;
const newPhone = () => `1677${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

/** A Cloud API `edit` message: the customer's new content for their earlier message. */
const edit = (originalId, body) => ({
  message: { type: 'edit', edit: { original_message_id: originalId, message: { type: 'text', text: { body } } } },
});

/** A Cloud API `revoke` message: the customer deleted their earlier message for everyone. */
const revoke = (originalId) => ({ message: { type: 'revoke', revoke: { original_message_id: originalId } } });

describe('edited and deleted messages', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('shows an edit and a delete live, and keeps them after a reload', async () => {
    const phone = newPhone();
    const name = 'Eddie Edit';
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name, phone, text: 'I need 3 boxes' });
    const customer = pane.getByRole('article', { name: 'Customer message' });
    const first = await injectMessage(tokens, phone, name, { text: 'Deliver on Monday' });
    await customer.filter({ hasText: 'Deliver on Monday' }).waitFor();
    const firstId = await customer.filter({ hasText: 'I need 3 boxes' }).getAttribute('data-message-id');

    await injectMessage(tokens, phone, name, edit(firstId, 'I need 4 boxes'));
    const edited = customer.filter({ hasText: 'I need 4 boxes' });
    await edited.getByText('Edited').waitFor();
    await customer.filter({ hasText: 'I need 3 boxes' }).waitFor({ state: 'detached' });

    await injectMessage(tokens, phone, name, revoke(first.id));
    const deleted = pane.locator(`[data-message-id="${first.id}"]`);
    await deleted.getByText('This message was deleted').waitFor();
    await deleted.getByText('Deliver on Monday').waitFor({ state: 'detached' });
    await deleted.getByRole('button', { name: 'Message actions' }).waitFor({ state: 'detached' });

    await page.reload();
    await page.getByRole('button', { name }).click();
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'I need 4 boxes' }).getByText('Edited').waitFor();
    await pane.locator(`[data-message-id="${first.id}"]`).getByText('This message was deleted').waitFor();
    await page.close();
  });
});
