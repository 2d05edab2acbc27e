// Offline work against the real server and sandbox: messages sent offline wait in the outbox,
// survive a reload served by the service worker, and are delivered once, in order, when the
// connection returns; a message whose answer a reload cut off shows once and is not sent again;
// a message queued by a page that was then closed is sent by the service
// worker's background sync; a send the server keeps refusing ends failed, and its retry works;
// a push message shows a notification with the contact's name and the preview, and clicking it
// opens the conversation in the open page without reloading it.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { logIn, registerByApi, startBrowser } from './browser.mjs';
import { ownServer } from './server.mjs';

let server;
let browser;
let phoneCounter = 0;
const newPhone = () => `1777${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

async function api(tokens, path, init = {}) {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}`, ...init.headers },
  });
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

/** A signed-in page with the service worker in control, in the conversation of a customer who just wrote. */
async function openConversation(name, text) {
  const { account, tokens } = await registerByApi(undefined, server.url);
  const phone = newPhone();
  await api(tokens, '/sandbox/customers/inject', { method: 'POST', body: JSON.stringify({ from: phone, name, text }) });
  const { page, pane } = await signInToConversation(account, name, text);
  return { page, pane, tokens, phone, account };
}

/** Signs `account` in on a new page (the last account's session gone) and opens customer `name`'s conversation. */
async function signInToConversation(account, name, text) {
  const page = await browser.context.newPage();
  await logIn(page, account);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.getByRole('button', { name }).click();
  const pane = page.getByRole('region', { name });
  await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: text }).waitFor();
  return { page, pane };
}

async function type(pane, text) {
  const box = pane.getByRole('textbox', { name: 'Type a message' });
  await box.fill(text);
  await box.press('Enter');
}

/** Polls a check made outside the page (in the worker) until it holds; `what` may be a function
 * that describes the failure when it is reached. */
async function eventually(check, what) {
  for (let tries = 0; !(await check()); tries += 1) {
    if (tries >= 100) assert.fail(typeof what === 'function' ? await what() : what);
    await new Promise((wait) => setTimeout(wait, 100));
  }
}

/** The worker's registration id as DevTools knows it, with a DevTools session on `page`. */
async function workerRegistration(page) {
  const cdp = await browser.context.newCDPSession(page);
  const registered = new Promise((done) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted && r.scopeURL === `${server.url}/`);
      if (live) done(live.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await registered };
}

/** The texts of the business's messages in the server's history, oldest first. */
async function sentTexts(tokens, phone) {
  const history = await api(tokens, `/api/conversation/${phone}?limit=30`);
  return history.messages.filter((m) => m.direction === 'outgoing').map((m) => m.content.text);
}

describe('offline', () => {
  before(async () => {
    server = await ownServer();
    browser = await startBrowser({ baseURL: server.url });
  });
  afterEach(async () => {
    await browser.context.setOffline(false);
    // Pages share the outbox and the signed-in account: one left open by a failed test would
    // send the next test's messages.
    await Promise.all(browser.context.pages().map((page) => page.close()));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('queues messages offline, keeps them and queues more after an offline reload, and delivers them once in order', async () => {
    const { page, pane, tokens, phone } = await openConversation('Olga Offline', 'Are you there?');
    await browser.context.setOffline(true);
    await page.getByRole('alert').filter({ hasText: 'You are offline.' }).waitFor();

    const texts = ['first while offline', 'second while offline', 'third while offline'];
    for (const text of texts) await type(pane, text);
    await page.getByRole('status').filter({ hasText: 'Offline: the message will be sent when you are back online.' }).first().waitFor();
    const mine = pane.getByRole('article', { name: 'Your message' });
    for (const text of texts) await mine.filter({ hasText: text }).getByRole('img', { name: 'Pending' }).waitFor();

    // Still offline: the service worker serves the app, the local database the list and messages.
    await page.reload();
    await page.getByRole('button', { name: 'Olga Offline' }).click();
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'Are you there?' }).waitFor();
    for (const text of texts) await mine.filter({ hasText: text }).getByRole('img', { name: 'Pending' }).waitFor();
    // The reloaded page can queue more (the business number comes from the saved conversation).
    texts.push('fourth, after the reload');
    await type(pane, texts[3]);
    await mine.filter({ hasText: texts[3] }).getByRole('img', { name: 'Pending' }).waitFor();
    assert.deepEqual(await sentTexts(tokens, phone), [], 'nothing reached the server while offline');

    await browser.context.setOffline(false);
    await page.getByRole('status').filter({ hasText: 'Connection restored.' }).waitFor();
    for (const text of texts) {
      await mine.filter({ hasText: text }).locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').waitFor({ timeout: 20_000 });
    }
    assert.deepEqual(await sentTexts(tokens, phone), texts);
    // The reconnection's re-read may bring a message's server copy a moment before the outbox
    // confirms its queued copy, which it then replaces.
    const shown = () => mine.evaluateAll((nodes) => nodes.map((node) => `${node.textContent} [${node.querySelector('[data-status]')?.getAttribute('data-status')}]`));
    await eventually(async () => (await mine.count()) === texts.length, async () => `a queued copy stayed beside its sent one: ${JSON.stringify(await shown())}`);
    const order = await mine.evaluateAll((nodes) => nodes.map((node) => node.textContent));
    assert.deepEqual(
      texts.map((text) => order.findIndex((content) => content.includes(text))),
      [0, 1, 2, 3],
    );
    // A reload online shows each message once: the server's copies replaced the queued ones.
    await page.reload();
    await page.getByRole('button', { name: 'Olga Offline' }).click();
    await mine.filter({ hasText: texts[3] }).waitFor();
    for (const text of texts) assert.equal(await mine.filter({ hasText: text }).count(), 1);
    await page.close();
  });

  it('has the service worker send a message queued by a page that was closed, and tell open pages', async () => {
    const { page, pane, tokens, phone } = await openConversation('Walter Worker', 'Ping?');
    await browser.context.setOffline(true);
    await page.getByRole('alert').filter({ hasText: 'You are offline.' }).waitFor();
    await type(pane, 'sent by the worker');
    await pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'sent by the worker' }).getByRole('img', { name: 'Pending' }).waitFor();
    // The page has handed the message to the worker: its session and a background sync.
    await page.waitForFunction(async () => {
      const registration = await navigator.serviceWorker.ready;
      const token = await (await (await caches.open('parley-session')).match('/__parley/access-token'))?.text();
      return token === localStorage.getItem('accessToken') && (await registration.sync.getTags()).includes('outbox');
    });

    // A page without the app (so it sends nothing itself) listens for the worker's report.
    const listener = await browser.context.newPage();
    await listener.goto('/privacy.html');
    await listener.evaluate(() => {
      window.reports = [];
      navigator.serviceWorker.addEventListener('message', (event) => window.reports.push(event.data));
    });
    await page.close();
    assert.deepEqual(await sentTexts(tokens, phone), []);
    await browser.context.setOffline(false);

    // The browser fires the sync when it sees the network back; DevTools fires it once the
    // worker can reach the server (the offline switch reaches the worker a moment later).
    const [worker] = browser.context.serviceWorkers();
    const reachable = () => worker.evaluate(() => fetch('/api/health', { method: 'HEAD' }).then((r) => r.ok, () => false));
    await eventually(reachable, 'the worker never saw the network back');
    const { cdp, registrationId } = await workerRegistration(listener);
    await cdp.send('ServiceWorker.dispatchSyncEvent', { origin: server.url, registrationId, tag: 'outbox', lastChance: false });

    await listener.waitForFunction(() => window.reports.some((report) => report.type === 'MESSAGE_SENT'));
    const reports = await listener.evaluate(() => window.reports);
    assert.equal(reports.length, 1);
    const [report] = reports;
    assert.match(report.tempMessageId, /^tmp-/);
    assert.ok(report.messageId, 'the provider id comes with the report');
    assert.deepEqual(await sentTexts(tokens, phone), ['sent by the worker']);
    await listener.close();
  });

  it('marks a message failed after three refused sends, and its retry delivers it once', async () => {
    const { page, pane, tokens, phone } = await openConversation('Fred Failing', 'Hello?');
    let refused = 0;
    await page.route('**/api/send-message', (route) => {
      refused += 1;
      return route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom","message":"boom"}' });
    });
    await type(pane, 'refused three times');
    const bubble = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'refused three times' });
    await page.getByRole('alert').filter({ hasText: 'Sending failed; it will be retried.' }).waitFor();
    await bubble.getByRole('img', { name: 'Failed' }).waitFor({ timeout: 20_000 });
    assert.equal(refused, 3);
    assert.deepEqual(await sentTexts(tokens, phone), []);

    await page.unroute('**/api/send-message');
    await bubble.getByRole('button', { name: 'Retry' }).click();
    await bubble.locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').waitFor({ timeout: 20_000 });
    assert.deepEqual(await sentTexts(tokens, phone), ['refused three times']);
    await page.close();
  });

  it('fails a queued message the server refuses for good once, says why, and keeps saying it after a reload', async () => {
    const { page, pane, tokens, phone } = await openConversation('Wendy Window', 'Still there?');
    const reason = 'The 24-hour reply window with this customer is closed: they have not written in the last 24 hours. Send an approved template instead.';
    let refused = 0;
    // The context's route sees the worker's sends too.
    await browser.context.route('**/api/send-message', (route) => {
      refused += 1;
      return route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ detail: reason, message: reason, code: 'validation_failed' }) });
    });
    try {
      await browser.context.setOffline(true);
      await type(pane, 'queued as the window closed');
      const bubble = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'queued as the window closed' });
      await bubble.getByRole('img', { name: 'Pending' }).waitFor();
      await browser.context.setOffline(false);
      await bubble.getByRole('img', { name: 'Failed' }).waitFor({ timeout: 20_000 });
      await bubble.getByRole('note').filter({ hasText: reason }).waitFor();
      // Three online checks later (every 5 s) nothing was tried again.
      await page.waitForTimeout(12_000);
      assert.equal(refused, 1);
      await page.reload();
      await page.getByRole('button', { name: 'Wendy Window' }).click();
      await bubble.getByRole('note').filter({ hasText: reason }).waitFor();
      assert.equal(refused, 1);
    } finally {
      await browser.context.unroute('**/api/send-message');
    }
    assert.deepEqual(await sentTexts(tokens, phone), []);
  });

  it('keeps each account\'s queue to itself when accounts take turns in one browser profile', async () => {
    // Ann's message cannot reach the server (the network fails for her page), so it stays queued.
    const ann = await openConversation('Ada Account', 'Hello Ann?');
    await ann.page.route('**/api/send-message', (route) => route.abort());
    await type(ann.pane, 'from Ann, queued');
    const annQueued = ann.pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'from Ann, queued' });
    await annQueued.getByRole('img', { name: 'Pending' }).waitFor();
    // Her session ends without a sign-out (as when its refresh is refused): the tokens are gone.
    await ann.page.evaluate(() => localStorage.clear());
    await ann.page.close();

    // Ben signs in on the same profile: Ann's message is not his to see or send, and his own go
    // at once.
    const ben = await openConversation('Bea Business', 'Hello Ben?');
    await type(ben.pane, 'from Ben');
    const benSent = ben.pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'from Ben' });
    await benSent.locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').waitFor({ timeout: 20_000 });
    assert.deepEqual(await sentTexts(ben.tokens, ben.phone), ['from Ben']);
    assert.equal(await ben.page.getByText('from Ann, queued').count(), 0);
    await ben.page.close();
    assert.deepEqual(await sentTexts(ann.tokens, ann.phone), [], 'Ann\'s message waits for Ann');

    // Ann back: her queued message shows and goes under her own account.
    const again = await signInToConversation(ann.account, 'Ada Account', 'Hello Ann?');
    const annMessage = again.pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'from Ann, queued' });
    await annMessage.locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').waitFor({ timeout: 20_000 });
    assert.deepEqual(await sentTexts(ann.tokens, ann.phone), ['from Ann, queued']);
    // Ben's business never sent anything to Ann's customer.
    assert.deepEqual(await sentTexts(ben.tokens, ann.phone), []);
    await again.page.close();
  });

  it('shows a pushed message as a notification with the contact name and the preview', async () => {
    await browser.context.grantPermissions(['notifications'], { origin: server.url });
    const page = await browser.context.newPage();
    await page.goto('/privacy.html');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const { cdp, registrationId } = await workerRegistration(page);
    const payload = { conversation_id: '123_15550001', phone_number: '15550001', name: 'Nina Notify', preview: 'Is the parcel on its way?' };

    const [worker] = browser.context.serviceWorkers();
    await eventually(() => worker.evaluate(() => Notification.permission === 'granted'), 'the worker never got the permission');

    const shown = () => worker.evaluate(async () => (await self.registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data })));
    // DevTools' push delivery is now and then lost on a busy machine: deliver again until it
    // shows (the tag makes a second delivery replace the first, so one notification remains).
    let polls = 0;
    const pushedAndShown = async () => {
      if (polls % 20 === 0) await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: JSON.stringify(payload) });
      polls += 1;
      return (await shown()).length > 0;
    };
    await eventually(pushedAndShown, 'no notification was shown');
    assert.deepEqual(await shown(), [{ title: 'Nina Notify', body: 'Is the parcel on its way?', data: { conversationId: '123_15550001' } }]);
    await browser.context.clearPermissions();
    await page.close();
  });

  it('opens the clicked notification\'s conversation in the open page without a reload', async () => {
    const { account, tokens } = await registerByApi(undefined, server.url);
    const phone = newPhone();
    await api(tokens, '/sandbox/customers/inject', { method: 'POST', body: JSON.stringify({ from: phone, name: 'Cora Click', text: 'Any news?' }) });
    const { phoneNumberId } = await api(tokens, '/api/config');
    const conversationId = `${phoneNumberId}_${phone}`;
    await browser.context.grantPermissions(['notifications'], { origin: server.url });
    const page = await browser.context.newPage();
    await logIn(page, account);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByRole('button', { name: 'Cora Click' }).waitFor();
    await page.evaluate(() => {
      window.sameDocument = true;
    });

    const [worker] = browser.context.serviceWorkers();
    await eventually(() => worker.evaluate(() => Notification.permission === 'granted'), 'the worker never got the permission');
    // A click as the browser reports it: the worker's notificationclick listener gets the shown
    // notification. (A script's event cannot extend its lifetime or focus a window, so those two
    // steps fail here; the page is already in front.)
    await worker.evaluate(async (id) => {
      await self.registration.showNotification('Cora Click', { body: 'Any news?', tag: id, data: { conversationId: id } });
      const [notification] = await self.registration.getNotifications({ tag: id });
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    }, conversationId);

    const pane = page.getByRole('region', { name: 'Cora Click' });
    await pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: 'Any news?' }).waitFor();
    assert.equal(await page.evaluate(() => window.sameDocument), true, 'the page was reloaded');
    assert.equal(new URL(page.url()).pathname, '/whatsapp');
    await browser.context.clearPermissions();
    await page.close();
  });
});

describe('a reload while a send is on its way', () => {
  // No receipts within the test: only the history read can tell the reloaded page the message
  // is sent.
  before(async () => {
    const later = '600000';
    server = await ownServer({ PARLEY_SANDBOX__SENT_DELAY_MS: later, PARLEY_SANDBOX__DELIVERED_DELAY_MS: later, PARLEY_SANDBOX__READ_DELAY_MS: later });
    browser = await startBrowser({ baseURL: server.url });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a message whose answer was lost to a reload once, and never sends it again', async () => {
    const { page, pane, tokens, phone } = await openConversation('Rhea Reload', 'Are you there?');
    // The send reaches the server, which stores and sends it; its answer never reaches the page,
    // which reloads while the outbox still holds the message claimed under its temporary id.
    let reached;
    const atServer = new Promise((done) => (reached = done));
    let release;
    const held = new Promise((done) => (release = done));
    await page.route('**/api/send-message', async (route) => {
      await route.fetch();
      reached();
      await held;
      await route.abort().catch(() => undefined);
    });
    await type(pane, 'Sent as the page reloaded');
    await atServer;
    await page.reload();
    release();
    await page.unroute('**/api/send-message');
    await page.getByRole('button', { name: 'Rhea Reload' }).click();

    // The history read brings the server's copy under the provider's id; the queued copy (under
    // the temporary id, claimed for a minute) gives way to it in the same update.
    const mine = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Sent as the page reloaded' });
    await pane.locator('[data-message-id^="wamid."]').filter({ hasText: 'Sent as the page reloaded' }).waitFor();
    assert.deepEqual(await mine.evaluateAll((nodes) => nodes.map((node) => node.dataset.messageId.split('.')[0])), ['wamid']);
    const queued = () => page.evaluate(() => new Promise((done, fail) => {
      const open = indexedDB.open('whatsapp-clone-db');
      open.onerror = () => fail(open.error);
      open.onsuccess = () => {
        const count = open.result.transaction('pending-messages').objectStore('pending-messages').count();
        count.onsuccess = () => done(count.result);
      };
    }));
    await eventually(async () => (await queued()) === 0, 'the sent message stayed in the outbox');
    assert.deepEqual(await sentTexts(tokens, phone), ['Sent as the page reloaded']);
    await page.close();
  });
});
