// Thumbnails against the real server and sandbox: a PDF sent from the composer and one a customer
// sends show their first page and page count (pdf.js), a sent video shows its first frame until
// played, and the thumbnails of server media are kept in the local database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE_URL, injectMessage, openCustomerConversation, recordMp4, startBrowser, uploadAsCustomer } from './browser.mjs';

let phoneCounter = 0;
const newPhone = () => `1699${String(Date.now() % 1_000_000).padStart(6, '0')}${(phoneCounter += 1)}`;

const RED = [0.85, 0.1, 0.1];
const BLUE = [0.1, 0.2, 0.85];

/** A PDF written by hand, one page per colour, each page filled with its colour. */
function handMadePdf(colours) {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>'];
  const kids = colours.map((_, index) => `${3 + 2 * index} 0 R`).join(' ');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${colours.length} >>`);
  for (const [index, colour] of colours.entries()) {
    const drawing = `${colour.join(' ')} rg 0 0 300 400 re f`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents ${4 + 2 * index} 0 R >>`);
    objects.push(`<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`);
  }
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = pdf.length;
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** The colour at the middle of a shown image, as [r, g, b]. */
function middleColour(image) {
  return image.evaluate(async (img) => {
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(img, 0, 0);
    return Array.from(context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data.subarray(0, 3));
  });
}

const isRed = ([r, g, b]) => r > 180 && g < 80 && b < 80;
const isBlue = ([r, g, b]) => b > 150 && r < 80 && g < 100;

/** Keys of the local database's thumbnails store. */
function storedThumbnails(page) {
  return page.evaluate(
    () =>
      new Promise((done, fail) => {
        const open = indexedDB.open('whatsapp-clone-db');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const keys = open.result.transaction('thumbnails').objectStore('thumbnails').getAllKeys();
          keys.onsuccess = () => done(keys.result);
          keys.onerror = () => fail(keys.error);
        };
      }),
  );
}

describe('media thumbnails', () => {
  let browser;
  before(async () => {
    browser = await startBrowser();
  });
  after(async () => {
    await browser.close();
  });

  async function openConversation(name, text) {
    const phone = newPhone();
    const opened = await openCustomerConversation(browser.context, { name, phone, text });
    return { ...opened, phone };
  }

  it('shows the first page and page count of PDFs sent and received, kept in the local database', async () => {
    const { page, tokens, phone, pane } = await openConversation('Paula Pages', 'Please send the report');

    await pane.locator('input[type=file]').setInputFiles([
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: handMadePdf([RED, BLUE, BLUE]) },
    ]);
    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    const sentCard = pane.getByRole('button', { name: 'Open document report.pdf' });
    const sentPage = sentCard.getByRole('img', { name: 'First page of report.pdf' });
    await sentPage.waitFor({ timeout: 20_000 });
    await sentCard.getByText('3 pages').waitFor();
    assert.ok(isRed(await middleColour(sentPage)), 'the first (red) page is drawn');

    const mediaId = await uploadAsCustomer(tokens, handMadePdf([BLUE, RED]), 'application/pdf', 'menu.pdf');
    await injectMessage(tokens, phone, 'Paula Pages', {
      message: { type: 'document', document: { id: mediaId, mime_type: 'application/pdf', filename: 'menu.pdf' } },
    });
    const receivedCard = pane.getByRole('button', { name: 'Open document menu.pdf' });
    const receivedPage = receivedCard.getByRole('img', { name: 'First page of menu.pdf' });
    await receivedPage.waitFor({ timeout: 20_000 });
    await receivedCard.getByText('2 pages').waitFor();
    assert.ok(isBlue(await middleColour(receivedPage)), 'the first (blue) page is drawn');

    // Server media is drawn once: its thumbnails are in the local database under the media URLs.
    const history = await (await fetch(`${BASE_URL}/api/conversation/${phone}`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } })).json();
    const urls = history.messages.filter((m) => m.type === 'document').map((m) => m.content.document.media_url);
    assert.equal(urls.length, 2);
    await page.reload();
    await page.getByRole('button', { name: 'Paula Pages' }).click();
    await pane.getByRole('button', { name: 'Open document report.pdf' }).getByText('3 pages').waitFor({ timeout: 20_000 });
    await pane.getByRole('button', { name: 'Open document menu.pdf' }).getByText('2 pages').waitFor();
    assert.deepEqual((await storedThumbnails(page)).sort(), [...urls].sort());
    await page.close();
  });

  it('shows a generated thumbnail of a video until it is played', async () => {
    const { page, pane } = await openConversation('Vic Video', 'Can I see it working?');
    // Chromium records an MP4 (H.264) of a canvas painted blue: the Cloud API's video format.
    const bytes = await recordMp4(page, { width: 320, height: 240, colour: '#1a33d9' });
    assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp');

    await pane.locator('input[type=file]').setInputFiles([{ name: 'demo.mp4', mimeType: 'video/mp4', buffer: bytes }]);
    await pane.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = pane.getByRole('article', { name: 'Your message' });
    await sent.getByRole('img', { name: /Sent|Delivered|Read/ }).waitFor({ timeout: 20_000 });
    const preview = sent.getByRole('img', { name: 'Video preview' });
    await preview.waitFor();
    assert.ok(isBlue(await middleColour(preview)), 'the first (blue) frame is drawn');
    assert.equal(await sent.locator('video').count(), 0);

    // From the server after a reload, then played.
    await page.reload();
    await page.getByRole('button', { name: 'Vic Video' }).click();
    const reloaded = pane.getByRole('article', { name: 'Your message' });
    await reloaded.getByRole('img', { name: 'Video preview' }).waitFor({ timeout: 20_000 });
    await reloaded.getByRole('button', { name: 'Play video' }).click();
    const video = reloaded.locator('video[controls]');
    await video.waitFor();
    await page.waitForFunction((element) => element.currentTime > 0 || element.ended, await video.elementHandle());
    assert.equal(await reloaded.getByRole('img', { name: 'Video preview' }).count(), 0);
    await page.close();
  });
});
