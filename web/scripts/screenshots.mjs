// The screenshots in docs/screenshots/, taken from the real app: a server of its own (the built
// web app and target/debug/parley, like the browser tests), a newly registered business whose
// sandbox customers write in, an approved template, an automated reply and a reply sent, then
// each screen at 1280×800 ("desktop") and 390×844 ("phone"), in English (dark theme) and, for
// the screens the docs show right to left, in Arabic (light theme).
// Run from web/ after `npm run build` and `cargo build -p parley-server --bin parley`:
//   node scripts/screenshots.mjs
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ownServer } from '../e2e/server.mjs';

const OUT = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const CUSTOMER = 'Omar Haddad';
const TEMPLATE = 'order_ready';
/** How long the sandbox's customers and review may take. */
const ARRIVAL_MS = 30_000;

const server = await ownServer({ PARLEY_SANDBOX__REPLY_PROBABILITY: '0' });
// The e2e helpers read the server's address when first imported.
process.env.PARLEY_URL = server.url;
const { logIn, registerByApi, startBrowser } = await import('../e2e/browser.mjs');
const { api, approvedTemplate } = await import('../e2e/templates.mjs');

/** The screens, each with how to show it on a signed-in page and the languages the docs show. */
const SCREENS = [
  {
    name: 'inbox-chat',
    languages: ['en', 'ar'],
    async show(page) {
      await page.goto('/whatsapp');
      await page.getByRole('button', { name: CUSTOMER }).click();
      await page.getByRole('region', { name: CUSTOMER }).getByText('Yes, it ships today.').waitFor();
    },
  },
  {
    name: 'template-library',
    languages: ['en', 'ar'],
    async show(page) {
      await page.goto('/template?view=library');
      await page.getByRole('listitem', { name: TEMPLATE }).waitFor();
    },
  },
  {
    name: 'sender-variables',
    languages: ['en', 'ar'],
    async show(page) {
      await page.goto('/sender');
      const form = page.locator('form.sender-form');
      await form.getByRole('radio').nth(1).check();
      await form.locator('select').first().selectOption({ label: `${TEMPLATE} (en_US)` });
      const csv = 'PhoneNumber,1\n+44 7700 900123,Omar\n+44 7700 900456,Sheena\nnot a number,Zed\n';
      await form.locator('input[type="file"]').setInputFiles({ name: 'customers.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.locator('.sender-skipped').waitFor();
    },
  },
  {
    name: 'automated-replies',
    languages: ['en', 'ar'],
    async show(page) {
      await page.goto('/automated-replies');
      await page.getByText('Opening hours').first().waitFor();
    },
  },
  {
    name: 'reports',
    languages: ['en'],
    async show(page) {
      await page.goto('/reports');
      await page.locator('.u-legend').first().waitFor();
    },
  },
  {
    name: 'profile',
    languages: ['en'],
    async show(page) {
      await page.goto('/edit-profile');
      await page.locator('form input').first().waitFor();
    },
  },
];

/** A business with conversations, a reply sent, an approved template and an automated reply. */
async function business(browser) {
  const { account, tokens } = await registerByApi(undefined, server.url);
  const page = await browser.context.newPage();
  await logIn(page, account);
  await page.getByRole('button', { name: CUSTOMER }).waitFor({ timeout: ARRIVAL_MS });
  await page.getByRole('button', { name: CUSTOMER }).click();
  const box = page.getByRole('textbox', { name: 'Type a message' });
  await box.fill('Yes, it ships today.');
  await box.press('Enter');
  await page.getByText('Yes, it ships today.').waitFor();
  await approvedTemplate(tokens, TEMPLATE, [
    { type: 'BODY', text: 'Hello {{1}}, your order is ready for pick-up.', example: { body_text: [['Sam']] } },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
  ]);
  const reply = new FormData();
  reply.set('trigger', 'Opening hours');
  reply.set('responseText', 'We are open 9:00–18:00, Sunday to Thursday.');
  await api(tokens, '/api/automated-replies/', { method: 'POST', body: reply });
  await page.close();
  return { account, tokens };
}

/** Signs in on a new page in the language (the profile's, which sign-in applies) and theme of the shot, at its size. */
async function signedIn(browser, { account, tokens }, language, size) {
  await api(tokens, '/identity/users/profile', {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ language }),
  });
  const page = await browser.context.newPage();
  await page.setViewportSize(SIZES[size]);
  await logIn(page, account);
  await page.locator(`html[lang="${language}"]`).waitFor({ state: 'attached' });
  await page.evaluate((theme) => localStorage.setItem('theme', theme), language === 'ar' ? 'light' : 'dark');
  return page;
}

const browser = await startBrowser({ baseURL: server.url });
try {
  // Every PNG here is one of this script's: those of screens no longer taken go.
  for (const file of readdirSync(OUT)) if (file.endsWith('.png')) rmSync(join(OUT, file));
  const owner = await business(browser);
  for (const screen of SCREENS) {
    for (const language of screen.languages) {
      for (const size of Object.keys(SIZES)) {
        const page = await signedIn(browser, owner, language, size);
        await screen.show(page);
        // Let fonts, images and transitions settle.
        await page.waitForTimeout(500);
        const file = `${screen.name}-${size}-${language}.png`;
        await page.screenshot({ path: join(OUT, file) });
        process.stdout.write(`docs/screenshots/${file}\n`);
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
