// Shared set-up of the browser tests: Debian's Chromium through playwright-core against the
// server that scripts/browser-tests.sh started (its address in PARLEY_URL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.PARLEY_URL ?? 'http://127.0.0.1:8080';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Chromium's own fake microphone (a tone): allowed without a prompt, or refused (headless refuses prompts). */
const MICROPHONE_FLAGS = {
  allowed: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
  refused: ['--use-fake-device-for-media-stream'],
};

/**
 * A fresh browser profile per test file; `close` removes it. `baseURL` defaults to PARLEY_URL;
 * `microphone` ('allowed' or 'refused') gives getUserMedia Chromium's fake devices.
 */
export async function startBrowser({ baseURL = BASE_URL, microphone } = {}) {
  const options = {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [...FLAGS, ...(MICROPHONE_FLAGS[microphone] ?? [])],
    baseURL,
    viewport: { width: 1280, height: 800 },
  };
  const { context, profile } = await launch(options);
  // A click, a download or a row appearing took over 10 s on a loaded two-core host (steal up
  // to 20 %) while the suite's server ran beside the browser.
  context.setDefaultTimeout(20_000);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Two browsers for the suite this is called in (two people at once), started before its tests
 * and closed after them: `first` and `second` are set once the suite starts.
 */
export function twoBrowsers() {
  const browsers = { first: null, second: null };
  before(async () => {
    browsers.first = await startBrowser();
    browsers.second = await startBrowser();
  });
  after(async () => {
    await browsers.first.close();
    await browsers.second.close();
  });
  return browsers;
}

/**
 * Launches Chromium on a fresh profile. A Chromium that exits while it starts (seen once on a
 * loaded CI host, before any page) is started again on another fresh profile, up to three times;
 * what the app does is never retried.
 */
async function launch(options, attempts = 3) {
  for (let attempt = 1; ; attempt += 1) {
    const profile = mkdtempSync(join(tmpdir(), 'parley-chromium-'));
    try {
      return { context: await chromium.launchPersistentContext(profile, options), profile };
    } catch (error) {
      rmSync(profile, { recursive: true, force: true });
      if (attempt >= attempts) throw error;
      console.error(`Chromium did not start (attempt ${attempt}): ${String(error).split('\n')[0]}`);
    }
  }
}

let counter = 0;

/** A new account's details, unique per run. */
export function newAccount() {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return { firstName: 'Ann', lastName: `Lee ${id}`, username: `ann${id}`, email: `ann${id}@example.com`, password: 'correct-horse-battery' };
}

/** Creates an account through the API (faster than the form) and answers its tokens. */
export async function registerByApi(account = newAccount(), base = BASE_URL) {
  const response = await fetch(`${base}/identity/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
  return { account, tokens: await response.json() };
}

/** Calls the API as the user of `tokens`; answers the JSON (null for 204), throws on a refusal. */
export async function apiAs(tokens, method, path, body, base = BASE_URL) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

/** The owner of `owner` adds an agent named `firstName` Agent; answers the agent's account. */
export async function createAgent(owner, firstName) {
  const account = { ...newAccount(), firstName, lastName: 'Agent' };
  await apiAs(owner, 'POST', '/identity/users/agents', account);
  return account;
}

/**
 * A simulated customer writes in through the sandbox (`body`: `{text}` or `{message}`, and
 * `{user_id, username}` for a customer known by username, with `from` undefined). Answers
 * `{id, webhook_status}`: `id` is the message's wamid.
 */
export async function injectMessage(tokens, from, name, body, base = BASE_URL) {
  const response = await fetch(`${base}/sandbox/customers/inject`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens.accessToken}` },
    body: JSON.stringify({ from, name, ...body }),
  });
  if (response.status !== 200) throw new Error(`inject answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** The customer's file, uploaded to the sandbox as the Cloud API would hold it. */
export async function uploadAsCustomer(tokens, bytes, mimeType, filename) {
  const profile = await (await fetch(`${BASE_URL}/identity/users/profile`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } })).json();
  const form = new FormData();
  form.append('messaging_product', 'whatsapp');
  form.append('type', mimeType);
  form.append('file', new Blob([bytes], { type: mimeType }), filename);
  const response = await fetch(`${BASE_URL}/sandbox/v21.0/${profile.phoneNumberId}/media`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${profile.accessToken}` },
    body: form,
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${body}`);
  return JSON.parse(body).id;
}

/**
 * An MP4 (H.264, the Cloud API's video format) of about a second that Chromium records from a
 * canvas of the given size painted in `colour`; answers its bytes.
 */
export async function recordMp4(page, { width, height, colour }) {
  const bytes = await page.evaluate(
    async ({ width, height, colour }) => {
      const canvas = Object.assign(document.createElement('canvas'), { width, height });
      const context = canvas.getContext('2d');
      const paint = () => {
        context.fillStyle = colour;
        context.fillRect(0, 0, width, height);
      };
      paint();
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/mp4;codecs=avc1' });
      const chunks = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      const painting = setInterval(paint, 40);
      const stopped = new Promise((done) => (recorder.onstop = done));
      recorder.start();
      await new Promise((done) => setTimeout(done, 1000));
      recorder.stop();
      await stopped;
      clearInterval(painting);
      return [...new Uint8Array(await new Blob(chunks).arrayBuffer())];
    },
    { width, height, colour },
  );
  return Buffer.from(bytes);
}

/**
 * Registers a new business owner on `base`, signs in on a new page of `context` and waits until
 * the inbox is open and live; answers the page and the account's tokens.
 */
export async function openInboxAsNewOwner(context, base = BASE_URL) {
  const page = await context.newPage();
  const { account, tokens } = await registerByApi(undefined, base);
  await logIn(page, account);
  await page.getByRole('img', { name: 'Live' }).waitFor();
  return { page, tokens };
}

/**
 * Signs a new account in on a new page of `context`, lets customer `name` (`phone`) write `text`
 * and opens that conversation by its conversation_id link: a list whose first page answers after
 * the customer's live event can drop the new row, which is not what these tests are about.
 */
export async function openCustomerConversation(context, { name, phone, text }) {
  const { page, tokens } = await openInboxAsNewOwner(context);
  await injectMessage(tokens, phone, name, { text });
  const config = await fetch(`${BASE_URL}/api/config`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
  const { phoneNumberId } = await config.json();
  await page.goto(`/whatsapp?conversation_id=${phoneNumberId}_${phone}`);
  const pane = page.getByRole('region', { name });
  await pane.getByText(text).waitFor();
  return { page, tokens, pane };
}

/** Signs in through the login form as a person would. */
export async function logIn(page, account) {
  await page.goto('/login');
  // Pages of one browser share storage: start signed out, in English, with the default theme.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.getByLabel('Email or username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/whatsapp');
}

/** Waits until the condition holds in the page (polling), failing after the default timeout. */
export async function waitForPage(page, predicate, arg) {
  await page.waitForFunction(predicate, arg);
}

/** Reads a localStorage value of the app. */
export function stored(page, key) {
  return page.evaluate((name) => localStorage.getItem(name), key);
}
