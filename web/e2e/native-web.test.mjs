// The web side of the native features and the installable app: importing contacts from a vCard
// through the settings menu, and the manifest, icons and service worker that make Chromium
// offer to install Parley.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openInboxAsNewOwner, startBrowser } from './browser.mjs';

const suffix = String(Date.now() % 10_000_000).padStart(7, '0');
const VCARD = [
  'BEGIN:VCARD',
  'VERSION:3.0',
  `FN:Vera Card ${suffix}`,
  `TEL;TYPE=CELL:+1 699 ${suffix}`,
  'END:VCARD',
  'BEGIN:VCARD',
  'VERSION:4.0',
  `FN:Walt Card ${suffix}`,
  `TEL;VALUE=uri;TYPE=cell:tel:+1-698-${suffix}`,
  'END:VCARD',
  '',
].join('\r\n');

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes) {
  assert.equal(bytes.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'not a PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('contact import on the web', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(() => browser.close());

  it('imports a vCard with two contacts from the settings menu and shows the counts', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.getByRole('button', { name: 'Settings' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('menuitem', { name: 'Import contacts' }).click();
    await (await chooser).setFiles({ name: 'team.vcf', mimeType: 'text/vcard', buffer: Buffer.from(VCARD) });

    await page.getByText('Import complete: 2 added, 0 updated, 0 unchanged.').waitFor();
    await page.getByRole('searchbox', { name: 'Search name or number' }).fill(suffix);
    await page.getByText(`Vera Card ${suffix}`).waitFor();
    await page.getByText(`Walt Card ${suffix}`).waitFor();
  });
});

describe('installable web app', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(() => browser.close());

  it('has a manifest whose icons load at their stated sizes', async () => {
    const page = await browser.context.newPage();
    await page.goto('/login');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await (await fetch(new URL(href, BASE_URL))).json();
    assert.equal(manifest.name, 'Parley');
    assert.equal(manifest.short_name, 'Parley');
    assert.equal(manifest.display, 'standalone');
    assert.equal(manifest.start_url, '/whatsapp');
    assert.ok(manifest.theme_color && manifest.background_color);
    assert.ok(manifest.icons.some((icon) => icon.purpose === 'maskable'), 'no maskable icon');

    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    const icons = [...manifest.icons, { src: touchIcon, sizes: '180x180' }];
    for (const icon of icons) {
      const response = await fetch(new URL(icon.src, BASE_URL));
      assert.equal(response.status, 200, icon.src);
      const [width, height] = icon.sizes.split('x').map(Number);
      assert.deepEqual(pngSize(Buffer.from(await response.arrayBuffer())), { width, height }, icon.src);
    }
    assert.equal(await page.locator('meta[name="apple-mobile-web-app-capable"]').getAttribute('content'), 'yes');
    await page.close();
  });

  it('is controlled by its service worker after a reload, with nothing in the way of installing', async () => {
    const page = await browser.context.newPage();
    await page.goto('/login');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    const cdp = await browser.context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    await page.close();
  });
});
