// A page left open across a deploy asks for screens' chunks that are gone, and a page offline asks
// for chunks it never kept: either must not leave a blank page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openInboxAsNewOwner, startBrowser } from './browser.mjs';

const REPORTS_CHUNK = /\/assets\/reports-page-[^/]*\.js$/;

/** Forgets the Reports screen's chunk in the worker's caches, as a worker of a newer build has. */
async function forgetReportsChunk(page) {
  await page.evaluate(async (source) => {
    const pattern = new RegExp(source);
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) if (pattern.test(new URL(request.url).pathname)) await cache.delete(request);
    }
  }, REPORTS_CHUNK.source);
}

async function openReportsFromMenu(page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('menuitem', { name: 'Reports' }).click();
}

describe('a screen whose code cannot be fetched', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(() => browser.close());

  it('reloads onto the new version when the open page names a chunk a deploy removed', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await forgetReportsChunk(page);
    // The server of the new version no longer has the old chunk: the first request for it is a 404.
    let refused = 0;
    await browser.context.route(REPORTS_CHUNK, (route) => {
      if (refused > 0) return route.continue();
      refused += 1;
      return route.fulfill({ status: 404, contentType: 'application/json', body: '{"detail":"Not found"}' });
    });
    await openReportsFromMenu(page);
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    assert.equal(refused, 1);
    await browser.context.unroute(REPORTS_CHUNK);
    await page.close();
  });

  it('says offline that the screen needs the network, and opens it after a reload online', async () => {
    const { page } = await openInboxAsNewOwner(browser.context);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    // Neither the worker's caches nor the browser's hold it (evicted, say, to free storage).
    await forgetReportsChunk(page);
    await browser.context.route(REPORTS_CHUNK, (route) => route.abort('internetdisconnected'));
    await browser.context.setOffline(true);
    try {
      await openReportsFromMenu(page);
      await page.getByRole('alert').filter({ hasText: 'This screen needs the network the first time' }).waitFor();
    } finally {
      await browser.context.setOffline(false);
      await browser.context.unroute(REPORTS_CHUNK);
    }
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await page.close();
  });
});
