// A customer's file never runs script in Parley's origin: an HTML "document" whose script would
// send the session's tokens away is downloaded when its card is opened, and even opened directly
// it is served as a sandboxed attachment. Every page of the app runs under its strict policy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openCustomerConversation, startBrowser, uploadAsCustomer } from './browser.mjs';

const newPhone = () => `1688${String(Date.now() % 1_000_000).padStart(6, '0')}1`;

/** The path the hostile page reports stolen tokens to; the test watches for any request to it. */
const LEAK_PATH = '/leak';

const HOSTILE_PAGE = `<!doctype html><html><body><script>
  const stolen = localStorage.getItem('accessToken') + ' ' + localStorage.getItem('refreshToken');
  document.title = 'stolen ' + stolen;
  fetch('${LEAK_PATH}?t=' + encodeURIComponent(stolen));
</script></body></html>`;

describe('customer files', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('downloads a customer HTML document instead of running it in the app', async () => {
    const leaks = [];
    const violations = [];
    browser.context.on('request', (request) => {
      if (new URL(request.url()).pathname === LEAK_PATH) leaks.push(request.url());
    });
    const phone = newPhone();
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: 'Mallory Files', phone, text: 'Your invoice follows' });
    page.on('console', (message) => message.text().includes('Content Security Policy') && violations.push(message.text()));

    const mediaId = await uploadAsCustomer(tokens, Buffer.from(HOSTILE_PAGE), 'text/html', 'invoice.html');
    await injectMessage(tokens, phone, 'Mallory Files', {
      message: { type: 'document', document: { id: mediaId, mime_type: 'text/html', filename: 'invoice.html' } },
    });
    const card = pane.getByRole('button', { name: 'Open document invoice.html' });
    await card.waitFor({ timeout: 20_000 });

    const pagesBefore = browser.context.pages().length;
    const [download] = await Promise.all([page.waitForEvent('download'), card.click()]);
    assert.equal(download.suggestedFilename(), 'invoice.html');
    assert.equal(browser.context.pages().length, pagesBefore, 'no page or tab was opened');
    assert.match(page.url(), /\/whatsapp/);
    assert.doesNotMatch(await page.title(), /stolen/);

    // The media answer itself: never a page, never sniffed, sandboxed.
    const history = await (await fetch(`${BASE_URL}/api/conversation/${phone}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } })).json();
    const mediaUrl = history.messages.find((message) => message.type === 'document').content.document.media_url;
    const media = await fetch(`${BASE_URL}${mediaUrl}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    assert.equal(media.status, 200);
    assert.equal(media.headers.get('content-type'), 'application/octet-stream');
    assert.equal(media.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(media.headers.get('content-security-policy'), 'sandbox');
    assert.match(media.headers.get('content-disposition'), /^attachment/);

    // Opened directly (as a link would), the browser saves it rather than showing it.
    const direct = await browser.context.newPage();
    const [directDownload] = await Promise.all([
      direct.waitForEvent('download'),
      direct.goto(`${mediaUrl}?token=${encodeURIComponent(tokens.accessToken)}`).catch(() => null),
    ]);
    assert.ok(directDownload);
    assert.doesNotMatch(await direct.title(), /stolen/);
    await direct.close();

    assert.deepEqual(leaks, [], 'the hostile script never ran');
    assert.deepEqual(violations, [], 'the app itself runs under its policy without violations');
    await page.close();
  });

  it('serves the app under a strict Content Security Policy', async () => {
    const response = await fetch(`${BASE_URL}/whatsapp`);
    assert.equal(response.status, 200);
    const policy = response.headers.get('content-security-policy');
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      assert.ok(policy.includes(directive), `${directive} in ${policy}`);
    }
    assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    assert.equal(response.headers.get('permissions-policy'), 'microphone=(self), camera=(), geolocation=()');
  });
});
