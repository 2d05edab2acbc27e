// A real server restart while the inbox stays open: the test runs its own server, kills it, starts
// it again on the same port, data dir and database, and two customer messages sent after it is
// back appear in the open conversation without a reload (the stream reconnects, follows its
// channels and resumes in one frame).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openInboxAsNewOwner, startBrowser } from './browser.mjs';
import { ownServer } from './server.mjs';

const phone = `1677${String(Date.now() % 10_000_000).padStart(7, '0')}`;

describe('server restart', () => {
  let server;
  let browser;
  before(async () => {
    server = await ownServer();
    browser = await startBrowser({ baseURL: server.url });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A simulated customer writes in through the sandbox of this test's server. */
  async function inject(tokens, text) {
    const response = await fetch(`${server.url}/sandbox/customers/inject`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}` },
      body: JSON.stringify({ from: phone, name: 'Rita Restart', text }),
    });
    const answer = await response.json();
    assert.equal(response.status, 200, JSON.stringify(answer));
    // The sandbox answers what the webhook answered it: a message not taken would never come.
    assert.equal(answer.webhook_status, 200, `${JSON.stringify(answer)}\n${server.log()}`);
  }

  it('shows messages sent after the server came back, without a reload', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context, server.url);
    // What each socket of the page sends and receives: the reconnected one is the last.
    const sockets = [];
    page.on('websocket', (socket) => {
      const frames = { sent: [], received: [] };
      sockets.push(frames);
      socket.on('framesent', (frame) => frames.sent.push(JSON.parse(String(frame.payload))));
      socket.on('framereceived', (frame) => frames.received.push(JSON.parse(String(frame.payload))));
    });
    await inject(tokens, 'Before the restart');
    await page.getByRole('button', { name: 'Rita Restart' }).click();
    const pane = page.getByRole('region', { name: 'Rita Restart' });
    await pane.getByText('Before the restart').waitFor();
    // Marks this document: a reload would lose it.
    await page.evaluate(() => {
      window.parleyRestartMarker = true;
    });

    await server.stop();
    await page.getByRole('img', { name: 'Live' }).waitFor({ state: 'detached' });
    await server.start();
    await inject(tokens, 'First after the restart');
    await inject(tokens, 'Second after the restart');

    await page.getByRole('img', { name: 'Live' }).waitFor({ timeout: 15_000 });
    try {
      await pane.getByText('First after the restart').waitFor({ timeout: 15_000 });
      await pane.getByText('Second after the restart').waitFor({ timeout: 15_000 });
    } catch (error) {
      // Where the messages stopped: what the pane shows and what the server logged.
      error.message += `\npane:\n${await pane.innerText()}\nserver log:\n${server.log()}`;
      throw error;
    }
    // The new socket followed its channels and resumed in one frame, so nothing had to be re-fetched.
    const reconnected = sockets.at(-1);
    const ops = reconnected.sent.filter((frame) => frame.op !== 'ping');
    const resume = ops.find((frame) => frame.op === 'resume');
    assert.ok(resume?.channels?.includes('notifications/all') && resume.channels.length === 2, JSON.stringify(ops));
    assert.deepEqual(ops.filter((frame) => frame.op === 'subscribe'), []);
    assert.deepEqual(reconnected.received.filter((frame) => frame.event === 'reset'), []);
    assert.equal(await pane.getByText('Before the restart').count(), 1);
    assert.equal(await page.evaluate(() => window.parleyRestartMarker), true);
    // The list row follows too.
    await page.getByRole('button', { name: 'Rita Restart' }).filter({ hasText: 'Second after the restart' }).waitFor();
    await page.close();
  });

  it('keeps messages typed while the server is down pending, then sends each once, in order, to a watching page too', async () => {
    const { page, tokens } = await openInboxAsNewOwner(browser.context, server.url);
    await inject(tokens, 'Anyone there?');
    await page.getByRole('button', { name: 'Rita Restart' }).click();
    const pane = page.getByRole('region', { name: 'Rita Restart' });
    await pane.getByText('Anyone there?').waitFor();
    const watcher = await browser.context.newPage();
    await watcher.goto('/whatsapp');
    await watcher.getByRole('button', { name: 'Rita Restart' }).click();
    const watched = watcher.getByRole('region', { name: 'Rita Restart' });
    await watched.getByText('Anyone there?').waitFor();

    await server.stop();
    // Typed before the page's next health check notices: the first send fails to connect and
    // the second waits behind it; both must read pending, not sending.
    const box = pane.getByRole('textbox', { name: 'Type a message' });
    const texts = ['typed while down', 'and another one'];
    for (const text of texts) {
      await box.fill(text);
      await box.press('Enter');
    }
    const mine = pane.getByRole('article', { name: 'Your message' });
    for (const text of texts) await mine.filter({ hasText: text }).getByRole('img', { name: 'Pending' }).waitFor();

    await server.start();
    for (const shown of [mine, watched.getByRole('article', { name: 'Your message' })]) {
      for (const text of texts) {
        await shown.filter({ hasText: text }).locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').waitFor({ timeout: 20_000 });
      }
      assert.deepEqual(await shown.evaluateAll((nodes, wanted) => wanted.map((text) => nodes.filter((node) => node.textContent.includes(text)).length), texts), [1, 1]);
    }
    const history = await (await fetch(`${server.url}/api/conversation/${phone}?limit=30`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } })).json();
    assert.deepEqual(history.messages.filter((m) => m.direction === 'outgoing').map((m) => m.content.text), texts);
    await watcher.close();
    await page.close();
  });
});
