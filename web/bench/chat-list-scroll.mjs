// Benchmark (run by `make bench`, not a test): a chat list of 10,000 conversations scrolled in
// Chromium, counting the long tasks (main-thread tasks over 50 ms, reported by a
// PerformanceObserver). Two passes: down from the top while the pages of 20 load as a person
// would scroll, then back up over the loaded list. The passes start once the inbox is live and
// the page has gone idle, so the sign-in's own work is not counted as scrolling. Each pass also
// reports the main thread's busy time per scroll step (Chromium's TaskDuration), the machine's
// load average, and from a trace the CPU time of each main-thread task: a long task whose CPU
// time is under 50 ms waited for a core on a busy machine (`cpuTasksOver50` counts the ones that
// were long by their own work). Needs a running server with the built web app and the sandbox
// (PARLEY_URL). Prints one JSON line. CHAT_ROWS sets the number of conversations.
import { loadavg } from 'node:os';
import { injectMessage, logIn, newAccount, registerByApi, startBrowser } from '../e2e/browser.mjs';

const ROWS = Number(process.env.CHAT_ROWS ?? 10_000);
const SEED_CONCURRENCY = 16;
/** Scroll steps at the end without a new row before a pass counts as done. */
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

/** Scrolls one viewport per frame (a fast flick) in `direction` until the end stays put. */
function scrollPass(scroller, { direction, idleSteps }) {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  return (async () => {
    window.__longTasks.length = 0;
    let steps = 0;
    let idle = 0;
    let height = scroller.scrollHeight;
    while (idle < idleSteps) {
      scroller.scrollTop += direction * scroller.clientHeight;
      steps += 1;
      await frame();
      const grown = scroller.scrollHeight > height;
      height = scroller.scrollHeight;
      const atEnd = direction > 0 ? scroller.scrollTop + scroller.clientHeight >= height - 1 : scroller.scrollTop <= 0;
      idle = grown || !atEnd ? 0 : idle + 1;
    }
    const tasks = window.__longTasks;
    const rowHeight = scroller.querySelector('[role="listitem"]').offsetHeight;
    return { rows: Math.round(height / rowHeight), steps, longTasks: tasks.length, longestMs: Math.round(Math.max(0, ...tasks)) };
  })();
}

/**
 * Traces the page's main-thread tasks until the answered function is called; it answers the
 * CPU time of each task in ms, longest first.
 */
async function traceTasks(cdp) {
  const events = [];
  const collect = ({ value }) => events.push(...value.filter((event) => event.name === 'RunTask' || event.name === 'thread_name'));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories: 'disabled-by-default-devtools.timeline,__metadata', transferMode: 'ReportEvents' });
  return async () => {
    const complete = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
    await cdp.send('Tracing.end');
    await complete;
    cdp.off('Tracing.dataCollected', collect);
    const tasksOf = (thread) => events.filter((event) => event.name === 'RunTask' && event.pid === thread.pid && event.tid === thread.tid);
    // The renderer main thread that ran the most tasks is the page's (a service worker has its own).
    const [main] = events
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((thread) => tasksOf(thread))
      .sort((a, b) => b.length - a.length);
    return (main ?? []).map((task) => (task.tdur ?? 0) / 1000).sort((a, b) => b - a);
  };
}

const { account, tokens } = await registerByApi(newAccount());
await seed(tokens);
const browser = await startBrowser();
try {
  const page = await browser.context.newPage();
  // The observer is there from the first script on; each pass counts only its own tasks.
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const busySeconds = async () => (await cdp.send('Performance.getMetrics')).metrics.find((metric) => metric.name === 'TaskDuration').value;
  await logIn(page, account);
  const list = page.getByRole('list', { name: 'Chats' });
  await list.getByRole('listitem').first().waitFor();
  await page.getByRole('img', { name: 'Live' }).waitFor();
  await page.evaluate(() => new Promise((done) => requestIdleCallback(done, { timeout: 5_000 })));
  const passes = {};
  for (const [name, direction] of [['down', 1], ['up', -1]]) {
    const stopTrace = await traceTasks(cdp);
    const before = await busySeconds();
    const pass = await list.evaluate(scrollPass, { direction, idleSteps: IDLE_STEPS });
    const busyMs = ((await busySeconds()) - before) * 1000;
    const cpuMs = await stopTrace();
    passes[name] = {
      ...pass,
      busyMsPerStep: Math.round((busyMs / pass.steps) * 10) / 10,
      cpuTasksOver50: cpuMs.filter((ms) => ms > 50).length,
      cpuLongestMs: Math.round((cpuMs[0] ?? 0) * 10) / 10,
      loadAverage: loadavg()[0],
    };
  }
  process.stdout.write(`${JSON.stringify({ seeded: ROWS, ...passes })}\n`);
} finally {
  await browser.close();
}
