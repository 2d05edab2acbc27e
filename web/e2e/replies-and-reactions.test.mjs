// Quoted replies, reactions and the pinned bottom of a conversation, against the real server and
// sandbox: the customer's quote and reaction arrive through the sandbox's webhook, the agent's
// reply and reaction go out through the message menu, and a picture that loads late keeps the
// newest message in view.
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openCustomerConversation, startBrowser, uploadAsCustomer, waitForPage } from './browser.mjs';

let phoneCounter = 0;
const newPhone = () => `1698${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

/** A PNG of one colour, written by hand. */
function png(width, height) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x40)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

async function history(tokens, phone) {
  const response = await fetch(`${BASE_URL}/api/conversation/${phone}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
  return (await response.json()).messages;
}

describe('quoted replies and reactions', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('shows a customer’s quote and reaction, and sends the agent’s reply with its quote and a reaction', async () => {
    const phone = newPhone();
    const question = 'Do you have the blue one?';
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: 'Qasim Quote', phone, text: question });
    const [first] = await history(tokens, phone);
    const bubbleOf = (text) => pane.getByRole('article').filter({ hasText: text });
    const original = pane.locator(`[data-message-id="${first.message_id}"]`);

    const answer = await injectMessage(tokens, phone, 'Qasim Quote', {
      message: { type: 'text', text: { body: 'Or the red one' }, context: { from: '15550783881', id: first.message_id } },
    });
    const reply = pane.locator(`[data-message-id="${answer.id}"]`);
    const quote = reply.getByRole('button', { name: `Show the quoted message: ${question}` });
    await quote.waitFor();
    await quote.click();
    await waitForPage(page, (id) => document.querySelector(`[data-message-id="${id}"]`)?.classList.contains('search-focus'), first.message_id);

    await injectMessage(tokens, phone, 'Qasim Quote', { message: { type: 'reaction', reaction: { message_id: first.message_id, emoji: '😮' } } });
    await original.getByRole('img', { name: 'Reactions: 😮' }).waitFor();

    await reply.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Reply' }).click();
    await pane.getByRole('status', { name: 'Replying to Customer' }).waitFor();
    await pane.getByRole('textbox').fill('Both are in stock');
    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    await bubbleOf('Both are in stock').getByRole('button', { name: 'Show the quoted message: Or the red one' }).waitFor();
    assert.equal(await pane.getByRole('status', { name: 'Replying to Customer' }).count(), 0, 'the composer forgets the quote once sent');

    await original.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'React with 👍' }).click();
    await original.getByRole('img', { name: 'Reactions: 😮 👍' }).waitFor({ timeout: 15_000 });

    const stored = await history(tokens, phone);
    const sent = stored.find((message) => message.content.text === 'Both are in stock');
    assert.equal(sent.content.context.id, answer.id);
    assert.deepEqual(stored.find((message) => message.message_id === first.message_id).content.reactions, { customer: '😮', business: '👍' });
    assert.equal(stored.filter((message) => message.type === 'reaction').length, 0, 'reactions are no messages of their own');
    await page.close();
  });

  it('stays at the newest message while a picture loads, on a phone-sized screen', async () => {
    const phone = newPhone();
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: 'Pia Picture', phone, text: 'Hello' });
    await page.setViewportSize({ width: 390, height: 844 });
    for (let n = 1; n <= 12; n += 1) await injectMessage(tokens, phone, 'Pia Picture', { text: `Line ${n}` });
    await pane.getByText('Line 12', { exact: true }).waitFor();
    const mediaId = await uploadAsCustomer(tokens, png(300, 600), 'image/png', 'tall.png');
    await injectMessage(tokens, phone, 'Pia Picture', { message: { type: 'image', image: { id: mediaId, mime_type: 'image/png' } } });
    const picture = pane.locator('.bubble img').last();
    await picture.waitFor({ timeout: 20_000 });
    await waitForPage(page, () => {
      const images = document.querySelectorAll('.message-list .bubble img');
      const img = images[images.length - 1];
      return img instanceof HTMLImageElement && img.complete && img.naturalHeight > 0;
    });
    await waitForPage(page, () => {
      const list = document.querySelector('.message-list');
      return list !== null && list.scrollHeight - list.scrollTop - list.clientHeight < 2;
    });
    const box = await picture.boundingBox();
    assert.ok(box && box.height > 100, 'the picture has its height');
    await page.close();
  });
});
