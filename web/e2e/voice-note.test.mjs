// Voice notes in Chromium with its fake microphone (a steady tone): record, stop, play back, send;
// the server keeps it as audio (Ogg/Opus, re-wrapped from Chromium's WebM in the browser), the
// sandbox accepted it, and the bytes decode. On a touch screen, hold to record and release to send,
// or slide left to cancel. A refused microphone says so.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openCustomerConversation, startBrowser } from './browser.mjs';

let phoneCounter = 0;
const newPhone = () => `1688${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

async function getJson(path, token) {
  const response = await fetch(`${BASE_URL}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  const body = await response.text();
  assert.equal(response.status, 200, `${path}: ${body}`);
  return JSON.parse(body);
}

/** The conversation as the server keeps it. */
const history = (tokens, phone) => getJson(`/api/conversation/${phone}`, tokens.accessToken);

/** What the sandbox (the fake Cloud API) accepted for the business's number. */
async function sandboxSent(tokens) {
  const profile = await getJson('/identity/users/profile', tokens.accessToken);
  const { messages } = await getJson(`/sandbox/sent?phone_number_id=${profile.phoneNumberId}`, profile.accessToken);
  return messages;
}

/** Seconds of audio that Chromium decodes from the server's copy of the media. */
function decodedSeconds(page, mediaUrl, token) {
  return page.evaluate(
    async ({ url, bearer }) => {
      const bytes = await (await fetch(url, { headers: { Authorization: `Bearer ${bearer}` } })).arrayBuffer();
      const head = String.fromCharCode(...new Uint8Array(bytes, 0, 4));
      const audio = await new OfflineAudioContext(1, 48_000, 48_000).decodeAudioData(bytes);
      return { head, seconds: audio.duration };
    },
    { url: mediaUrl, bearer: token },
  );
}

describe('voice notes', () => {
  let browser;
  before(async () => {
    browser = await startBrowser({ microphone: 'allowed' });
  });
  after(async () => {
    await browser.close();
  });

  async function openConversation(name) {
    const phone = newPhone();
    const opened = await openCustomerConversation(browser.context, { name, phone, text: 'Can you send a voice note?' });
    return { ...opened, phone };
  }

  it('records, plays back and sends a voice note that the server keeps as Ogg/Opus audio', async () => {
    const { page, tokens, phone, pane } = await openConversation('Vera Voice');
    await pane.getByRole('button', { name: 'Record a voice note' }).click();
    const timer = pane.getByRole('timer', { name: 'Recording time' });
    await timer.filter({ hasText: '00:00' }).waitFor();
    await timer.filter({ hasText: '00:02' }).waitFor();
    await pane.getByRole('button', { name: 'Stop' }).click();

    const preview = pane.getByLabel('Voice note preview');
    await preview.waitFor();
    await page.waitForFunction((audio) => audio.readyState >= 1, await preview.elementHandle());
    await pane.getByRole('button', { name: 'Send voice note' }).click();
    await preview.waitFor({ state: 'detached' });

    const sent = pane.getByRole('article', { name: 'Your message' });
    await sent.getByRole('img', { name: /Sent|Delivered|Read/ }).waitFor({ timeout: 20_000 });
    await sent.getByLabel('Audio message').waitFor();

    const [message] = (await history(tokens, phone)).messages.filter((m) => m.direction === 'outgoing');
    assert.equal(message.type, 'audio');
    assert.equal(message.content.audio.mime_type, 'audio/ogg');
    const accepted = (await sandboxSent(tokens)).filter((m) => m.body.type === 'audio');
    assert.equal(accepted.length, 1);
    assert.equal(accepted[0].body.to.replace(/\D/g, ''), phone);
    assert.match(accepted[0].body.audio.id, /^\d+$/);

    const decoded = await decodedSeconds(page, message.content.audio.media_url, tokens.accessToken);
    assert.equal(decoded.head, 'OggS');
    assert.ok(decoded.seconds > 1.5 && decoded.seconds < 10, `decoded ${decoded.seconds} s`);

    // After a reload the note plays from the server's copy.
    await page.reload();
    await page.getByRole('button', { name: 'Vera Voice' }).click();
    const player = pane.getByRole('article', { name: 'Your message' }).getByLabel('Audio message');
    await page.waitForFunction((audio) => audio.readyState >= 1 && audio.duration > 1.5, await player.elementHandle());
    await page.close();
  });

  it('on a touch screen, holding records, releasing sends and sliding left cancels', async () => {
    const { page, tokens, phone, pane } = await openConversation('Theo Touch');
    const touch = await page.context().newCDPSession(page);
    await touch.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    const box = await pane.getByRole('button', { name: 'Record a voice note' }).boundingBox();
    const at = (dx) => ({ touchPoints: [{ x: box.x + box.width / 2 + dx, y: box.y + box.height / 2 }] });

    // Slide 80 px to the left while holding: cancelled, nothing sent.
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', ...at(0) });
    const timer = pane.getByRole('timer', { name: 'Recording time' });
    await timer.filter({ hasText: '00:01' }).waitFor();
    await pane.getByText('Slide left to cancel').waitFor();
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', ...at(-40) });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', ...at(-80) });
    await timer.waitFor({ state: 'detached' });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });

    // Hold for a second and release: sent at once.
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', ...at(0) });
    await timer.filter({ hasText: '00:01' }).waitFor();
    await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', ...at(-30) });
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    const sent = pane.getByRole('article', { name: 'Your message' });
    await sent.getByRole('img', { name: /Sent|Delivered|Read/ }).waitFor({ timeout: 20_000 });

    const outgoing = (await history(tokens, phone)).messages.filter((m) => m.direction === 'outgoing');
    assert.deepEqual(
      outgoing.map((m) => m.type),
      ['audio'],
    );
    assert.equal((await sandboxSent(tokens)).filter((m) => m.body.type === 'audio').length, 1);
    await page.close();
  });
});

describe('voice notes without the microphone', () => {
  let browser;
  before(async () => {
    browser = await startBrowser({ microphone: 'refused' });
  });
  after(async () => {
    await browser.close();
  });

  it('shows microphoneAccessDenied when the microphone is refused, and the recorder stays idle', async () => {
    const { page, pane } = await openCustomerConversation(browser.context, { name: 'Nina Nomic', phone: newPhone(), text: 'Hello?' });
    await pane.getByRole('button', { name: 'Record a voice note' }).click();
    await page.getByRole('alert').filter({ hasText: 'Microphone access was denied.' }).waitFor();
    assert.equal(await pane.getByRole('timer', { name: 'Recording time' }).count(), 0);
    await pane.getByRole('button', { name: 'Record a voice note' }).waitFor();
    await page.close();
  });
});
