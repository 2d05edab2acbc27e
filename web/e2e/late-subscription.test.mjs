// A tab whose live subscription takes hold after its first reads loses nothing that came in
// between. The test holds the socket's frames to the server (its subscriptions) past the time the
// screens wait for them, so they read first; a customer writes; then the frames go through. Once
// the server confirms the subscription, the open conversation and the chat list show the message,
// without a reload.
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openInboxAsNewOwner, startBrowser } from './browser.mjs';

const phone = `1699${String(Date.now() % 10_000_000).padStart(7, '0')}`;

describe('late live subscription', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('shows a message that arrived between the first reads and the subscription', async () => {
    const { page: signedIn, tokens } = await openInboxAsNewOwner(browser.context);
    await injectMessage(tokens, phone, 'Gail Gap', { text: 'First words' });
    const config = await fetch(`${BASE_URL}/api/config`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    const { phoneNumberId } = await config.json();

    const page = await browser.context.newPage();
    const held = [];
    let holding = true;
    let server = null;
    await page.routeWebSocket(/\/api\/ws/, (socket) => {
      server = socket.connectToServer();
      socket.onMessage((frame) => (holding ? held.push(frame) : server.send(frame)));
    });
    await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
    const pane = page.getByRole('region', { name: 'Gail Gap' });
    await pane.getByText('First words').waitFor();
    // The tab has asked to subscribe; the request waits here.
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));

    // Answered 200 once stored; this tab is not subscribed yet, so no event reaches it.
    await injectMessage(tokens, phone, 'Gail Gap', { text: 'Words in the gap' });
    holding = false;
    held.splice(0).forEach((frame) => server.send(frame));

    await pane.getByText('Words in the gap').waitFor();
    await page.getByRole('button', { name: 'Gail Gap' }).getByText('Words in the gap').waitFor();
    await page.close();
    await signedIn.close();
  });
});
