// A wide video in a chat bubble at 390 px, in English and in Arabic (right to left): the
// customer's and one sent from the composer, played, lie inside their bubbles and the screen.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { apiAs as api, injectMessage, openCustomerConversation, recordMp4, startBrowser, uploadAsCustomer } from './browser.mjs';

const locales = Object.fromEntries(
  ['en', 'ar'].map((language) => [language, JSON.parse(readFileSync(new URL(`../public/locales/${language}/translation.json`, import.meta.url), 'utf8'))]),
);
const phone = `1697${String(Date.now() % 1_000_000).padStart(6, '0')}`;
const CUSTOMER = 'Vera Video';

describe('video layout', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  it('keeps a played wide video inside its bubble and the screen at 390 px, the customer\'s and one sent, in English and Arabic', async () => {
    const { page, tokens, pane } = await openCustomerConversation(browser.context, { name: CUSTOMER, phone, text: 'Send me the clip' });
    const { phoneNumberId } = await api(tokens, 'GET', '/api/config');
    const link = `/whatsapp?conversation_id=${phoneNumberId}_${phone}`;
    const mp4 = await recordMp4(page, { width: 800, height: 450, colour: '#1a33d9' });
    const mediaId = await uploadAsCustomer(tokens, mp4, 'video/mp4', 'wide.mp4');
    await injectMessage(tokens, phone, CUSTOMER, { message: { type: 'video', video: { id: mediaId, mime_type: 'video/mp4' } } });
    await pane.locator('input[type=file]').setInputFiles([{ name: 'sent.mp4', mimeType: 'video/mp4', buffer: mp4 }]);
    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    await pane.getByRole('article', { name: 'Your message' }).getByRole('img', { name: /Sent|Delivered|Read/ }).waitFor({ timeout: 20_000 });
    await page.setViewportSize({ width: 390, height: 844 });

    for (const language of ['en', 'ar']) {
      if (language === 'ar') {
        await page.goto('/whatsapp');
        await page.getByRole('button', { name: 'Settings' }).click();
        await page.getByRole('menuitem', { name: 'العربية' }).click();
        await page.locator('html[dir="rtl"]').waitFor({ state: 'attached' });
      }
      await page.goto(link);
      const region = page.getByRole('region', { name: CUSTOMER });
      const play = region.getByRole('button', { name: locales[language].media.play });
      await play.nth(1).waitFor({ timeout: 20_000 });
      for (let left = await play.count(); left > 0; left -= 1) await play.first().click();
      // Measured once each player knows the video's own size (800 × 450).
      await page.waitForFunction(() => {
        const videos = [...document.querySelectorAll('.bubble video')];
        return videos.length === 2 && videos.every((video) => video.videoWidth === 800);
      });
      const players = await page.evaluate(() =>
        [...document.querySelectorAll('.bubble video')].map((video) => ({
          video: video.getBoundingClientRect().toJSON(),
          bubble: video.closest('.bubble').getBoundingClientRect().toJSON(),
          outgoing: video.closest('.bubble').classList.contains('outgoing'),
        })),
      );
      assert.deepEqual(players.map(({ outgoing }) => outgoing).sort(), [false, true]);
      for (const { video, bubble, outgoing } of players) {
        const where = `${language}, ${outgoing ? 'sent' : 'the customer’s'}: ${JSON.stringify({ video, bubble })}`;
        assert.ok(video.width > 100, `the player keeps a useful size (${where})`);
        assert.ok(video.left >= bubble.left - 0.5 && video.right <= bubble.right + 0.5, `the player lies inside its bubble (${where})`);
        assert.ok(bubble.left >= 0 && bubble.right <= 390.5, `the bubble lies inside the screen (${where})`);
      }
    }
  });
});
