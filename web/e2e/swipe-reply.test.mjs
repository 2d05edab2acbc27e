// Swipe to reply on a touch screen (Chromium's touch emulation, touches sent through DevTools):
// a customer's bubble swiped to the right starts the same reply as the menu's Reply, and the
// reply goes out quoting it; in Arabic the gesture is mirrored, a swipe to the left.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, openCustomerConversation, startBrowser } from './browser.mjs';

const phone = `1699${String(Date.now() % 1_000_000).padStart(6, '0')}`;

/** A one-finger horizontal drag across the middle of `locator`, by `dx` px, in small steps. */
async function swipe(cdp, locator, dx) {
  // Measured once the bubble has settled in the phone-sized layout.
  await locator.evaluate((bubble) => new Promise((settled) => {
    const check = () => {
      const box = bubble.getBoundingClientRect();
      if (box.width > 60 && box.right <= window.innerWidth) settled();
      else requestAnimationFrame(check);
    };
    check();
  }));
  const box = await locator.boundingBox();
  const y = box.y + box.height / 2;
  const x = box.x + box.width / 2;
  const touch = (type, at) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: at === null ? [] : [{ x: at, y }] });
  await touch('touchStart', x);
  for (let step = 1; step <= 6; step += 1) await touch('touchMove', x + (dx * step) / 6);
  await touch('touchEnd', null);
}

describe('swipe to reply', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('starts a reply by swiping a bubble towards the reading direction, on a phone-sized touch screen', async () => {
    const question = 'Can I swipe to answer this?';
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: 'Tomas Touch', phone, text: question });
    await page.setViewportSize({ width: 390, height: 844 });
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 1 });
    const bubble = pane.getByRole('article', { name: 'Customer message' }).filter({ hasText: question });

    // The wrong way does nothing; to the right starts the reply.
    await swipe(cdp, bubble, -100);
    assert.equal(await page.getByRole('status', { name: 'Replying to Customer' }).count(), 0);
    await swipe(cdp, bubble, 100);
    await page.getByRole('status', { name: 'Replying to Customer' }).filter({ hasText: question }).waitFor();
    const box = pane.getByRole('textbox', { name: 'Type a message' });
    await box.fill('Yes, like this.');
    await box.press('Enter');
    const sent = pane.getByRole('article', { name: 'Your message' }).filter({ hasText: 'Yes, like this.' });
    await sent.locator('[data-status="sent"], [data-status="delivered"], [data-status="read"]').waitFor({ timeout: 20_000 });
    const response = await fetch(`${BASE_URL}/api/conversation/${phone}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
    const { messages } = await response.json();
    const [asked] = messages.filter((m) => m.content.text === question);
    const [answered] = messages.filter((m) => m.content.text === 'Yes, like this.');
    assert.equal(answered.content.context?.id, asked.message_id);

    // Right to left: the gesture is mirrored, a swipe to the left.
    await page.goto('/whatsapp');
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('menuitem', { name: 'العربية' }).click();
    await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Tomas Touch' }).click();
    // The customer's own bubble (the reply quoting it carries its text too).
    const arabicBubble = page.locator('article.incoming').filter({ hasText: question });
    await arabicBubble.waitFor();
    await swipe(cdp, arabicBubble, -100);
    await page.getByRole('status').filter({ hasText: question }).waitFor();
    await page.close();
  });
});
