// Web Push end to end: a push service of the test's own on loopback, a subscription whose keys
// only this test holds (made as a browser makes them: ECDH prime256v1 and a 16-byte auth secret),
// a customer message through the sandbox, and the push decrypted here (RFC 8291, aes128gcm) with
// its VAPID signature checked (RFC 8292). Chromium cannot reach a real push service in this
// sandboxed machine, so this stands in for the browser's side.
import assert from 'node:assert/strict';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { injectMessage, registerByApi } from './browser.mjs';
import { ownServer } from './server.mjs';

const CUSTOMER = `1688${String(Date.now() % 10_000_000).padStart(7, '0')}`;
const QUIET_MS = 1000;

/** A push service: records each request; `next()` answers the next one. */
async function startPushService() {
  const received = [];
  const waiting = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { path: req.url, headers: req.headers, body: Buffer.concat(chunks) };
      res.writeHead(201).end();
      const waiter = waiting.shift();
      if (waiter) waiter(delivery);
      else received.push(delivery);
    });
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    next() {
      if (received.length) return Promise.resolve(received.shift());
      return new Promise((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no push arrived')), 15_000);
        waiting.push((delivery) => {
          clearTimeout(timer);
          done(delivery);
        });
      });
    },
    pending: () => received.length,
    close: () => new Promise((done) => server.close(done)),
  };
}

/** A browser's half of a subscription. */
function newBrowser(endpoint) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    subscription: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

/** Decrypts an aes128gcm push body with the browser's keys into its JSON payload. */
function decrypt(browser, body) {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  assert.equal(idLength, 65, 'the key id is the server’s ephemeral P-256 key');
  assert.ok(ciphertext.length <= recordSize, 'one record');
  const shared = browser.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  let end = plain.length;
  while (end > 0 && plain[end - 1] === 0) end -= 1;
  assert.equal(plain[end - 1], 2, 'last-record delimiter');
  return JSON.parse(plain.subarray(0, end - 1).toString('utf8'));
}

/** Checks `Authorization: vapid t=…, k=…` against the server's advertised key. */
function checkVapid(headers, publicKey, audience) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(headers.authorization ?? '');
  assert.ok(match, `VAPID authorization: ${headers.authorization}`);
  const [, jwt, key] = match;
  assert.equal(key, publicKey);
  const raw = Buffer.from(key, 'base64url');
  const verifier = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const [header, claims, signature] = jwt.split('.');
  const signed = Buffer.from(`${header}.${claims}`);
  const valid = verify('sha256', signed, { key: verifier, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  assert.ok(valid, 'the VAPID token is signed with the advertised key');
  assert.equal(JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')).aud, audience);
}

describe('web push', () => {
  let server;
  let pushService;
  before(async () => {
    server = await ownServer({
      PARLEY_PUSH__ALLOW_HTTP_ENDPOINTS: 'true',
      PARLEY_SANDBOX__SIMULATED_CUSTOMERS: '0',
      PARLEY_SANDBOX__REPLY_PROBABILITY: '0',
    });
    pushService = await startPushService();
  });
  after(async () => {
    await pushService?.close();
    await server?.close();
  });

  async function api(path, tokens, body) {
    const response = await fetch(`${server.url}${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}` },
      body: body && JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  it('delivers an encrypted notification of a customer message to the subscribed browser', async () => {
    const { tokens } = await registerByApi(undefined, server.url);
    const browser = newBrowser(`${pushService.url}/send/browser-1`);
    const keyAnswer = await (await fetch(`${server.url}/api/push/public-key`)).json();
    // The client sends the subscription as PushSubscription JSON, here as a string.
    const subscribed = await api('/api/subscribe-to-notifications', tokens, {
      token: JSON.stringify(browser.subscription),
      platform: 'web',
    });
    assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
    assert.equal(subscribed.body.status, 'success');
    const { phoneNumberId } = (await api('/api/config', tokens)).body;

    await injectMessage(tokens, CUSTOMER, 'Nadia Push', { text: 'Where is my parcel?' }, server.url);
    const push = await pushService.next();
    assert.equal(push.path, '/send/browser-1');
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    checkVapid(push.headers, keyAnswer.publicKey, pushService.url);
    const payload = decrypt(browser, push.body);
    assert.equal(payload.name, 'Nadia Push');
    assert.equal(payload.preview, 'Where is my parcel?');
    assert.equal(payload.conversation_id, `${phoneNumberId}_${CUSTOMER}`);
    assert.equal(payload.phone_number, CUSTOMER);
    assert.equal(payload.message_type, 'text');
    // Another browser's keys cannot open it.
    assert.throws(() => decrypt(newBrowser('unused'), push.body));

    const unsubscribed = await api('/api/unsubscribe-from-notifications', tokens, { token: browser.subscription });
    assert.deepEqual(unsubscribed, { status: 200, body: { status: 'success', removed: 1 } });
    await injectMessage(tokens, CUSTOMER, 'Nadia Push', { text: 'Hello?' }, server.url);
    await new Promise((wait) => setTimeout(wait, QUIET_MS));
    assert.equal(pushService.pending(), 0, 'no push after unsubscribing');
  });
});
