// Benchmark (run by `make bench`, not a test): a chat list of 10,000 conversations scrolled from
// top to bottom in Chromium, counting the long tasks (main-thread tasks over 50 ms, reported by a
// PerformanceObserver) while it scrolls. Needs a running server with the built web app and the
// sandbox (PARLEY_URL). Prints one JSON line: rows, scroll steps, long tasks, the longest (ms).
// CHAT_ROWS sets the number of conversations (default 10,000).
import { injectMessage, logIn, newAccount, registerByApi, startBrowser } from '../e2e/browser.mjs';

const ROWS = Number(process.env.CHAT_ROWS ?? 10_000);
const SEED_CONCURRENCY = 16;
/** Scroll steps without a new row before the list counts as fully loaded. */
const IDLE_STEPS = 200;

async function seed(tokens) {
  let next = 0;
  async function worker() {
    while (next < ROWS) {
      const index = next++;
      const phone = String(15550000000 + index);
      await injectMessage(tokens, phone, `Customer ${index}`, { text: `Hello from customer ${index}` });
    }
  }
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, worker));
}

const { account, tokens } = await registerByApi(newAccount());
await seed(tokens);
const browser = await startBrowser();
try {
  const page = await browser.context.newPage();
  // The observer is there from the first script on; only what happens while scrolling counts.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await logIn(page, account);
  const list = page.getByRole('list', { name: 'Chats' });
  await list.getByRole('listitem').first().waitFor();
  const result = await list.evaluate(
    async (scroller, { rows, idleSteps }) => {
      const frame = () => new Promise((done) => requestAnimationFrame(done));
      window.__longTasks.length = 0;
      let steps = 0;
      let idle = 0;
      let height = scroller.scrollHeight;
      // One viewport per frame, as fast as a flick; at the bottom, wait for the next page.
      while (idle < idleSteps) {
        scroller.scrollTop += scroller.clientHeight;
        steps += 1;
        await frame();
        const grown = scroller.scrollHeight > height;
        height = scroller.scrollHeight;
        const atBottom = scroller.scrollTop + scroller.clientHeight >= height - 1;
        idle = grown || !atBottom ? 0 : idle + 1;
      }
      const tasks = window.__longTasks;
      const loaded = Math.round(height / scroller.firstElementChild.firstElementChild.offsetHeight);
      return { rows, loaded, steps, longTasks: tasks.length, longestMs: Math.round(Math.max(0, ...tasks)) };
    },
    { rows: ROWS, idleSteps: IDLE_STEPS },
  );
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await browser.close();
}
