// The first-load budget, checked on the built app (run after `vite build`; `npm run size` does
// both). Two figures, gzip'd as the server sends them:
// - the sign-in page's JavaScript: the entry script of index.html, everything it imports
//   statically (from Vite's manifest) and every modulepreload link, budget 120 kB;
// - a first visit: index.html, that JavaScript, its CSS, the service worker and everything the
//   worker precaches on install, budget 400 kB.
// Exits 1 when either is over budget. `--json` prints the figures as JSON (for the benchmarks).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export const LOGIN_JS_BUDGET = 120_000;
export const FIRST_VISIT_BUDGET = 400_000;

const dist = join(import.meta.dirname, '..', 'dist');
const read = (path) => readFileSync(join(dist, path));
const gzipped = (path) => gzipSync(read(path), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** The entry chunk and its static imports, depth first, each once. */
function staticClosure(manifest, key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

const manifest = JSON.parse(read('.vite/manifest.json'));
const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
const chunks = entries.flatMap((key) => [...staticClosure(manifest, key)]);
const html = read('index.html').toString();
const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/([^"]+)"/g)].map((m) => m[1]);
const loginJs = [...new Set([...chunks.map((key) => manifest[key].file), ...preloaded])];
const loginCss = [...new Set(chunks.flatMap((key) => manifest[key].css ?? []))];
// The worker's precache list, as injected into sw.js: {"revision":…,"url":"…"} entries.
const precached = [...read('sw.js').toString().matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]);
const firstVisit = [...new Set(['index.html', 'sw.js', ...loginJs, ...loginCss, ...precached])];

const sum = (files) => files.reduce((total, file) => total + gzipped(file), 0);
const figures = {
  loginJsGzip: sum(loginJs),
  firstVisitGzip: sum(firstVisit),
  loginJsFiles: loginJs,
  precachedFiles: precached.length,
};

const say = (line) => process.stdout.write(`${line}\n`);
if (process.argv.includes('--json')) {
  say(JSON.stringify(figures));
} else {
  for (const file of loginJs) say(`  ${kb(gzipped(file)).padStart(9)}  ${file}`);
  say(`sign-in page JavaScript: ${kb(figures.loginJsGzip)} gzip'd (budget ${kb(LOGIN_JS_BUDGET)})`);
  say(`first visit: ${kb(figures.firstVisitGzip)} gzip'd in ${firstVisit.length} files, ${precached.length} precached (budget ${kb(FIRST_VISIT_BUDGET)})`);
}
const over = [];
if (figures.loginJsGzip > LOGIN_JS_BUDGET) over.push('the sign-in page JavaScript');
if (figures.firstVisitGzip > FIRST_VISIT_BUDGET) over.push('the first visit');
if (over.length > 0) {
  process.stderr.write(`over budget: ${over.join(' and ')}\n`);
  process.exit(1);
}
