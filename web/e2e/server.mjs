// A server of the test's own, for tests that stop and start it (scripts/browser-tests.sh starts
// the shared ones the same way: a fresh data dir, the built web app, a wait for the health check).
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BINARY = process.env.PARLEY_BIN ?? join(ROOT, 'target/debug/parley');

export function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/**
 * A server on a free port and a fresh data dir (the database is the data dir's SQLite file unless
 * DATABASE_URL is set, which it inherits). `stop` kills the process; `start` runs it again on the
 * same port, data dir and database.
 */
export async function ownServer(env = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const log = join(dataDir, 'server.log');
  let child = null;

  async function start() {
    const out = openSync(log, 'a');
    child = spawn(BINARY, ['serve', '--bind', `127.0.0.1:${port}`, '--data-dir', dataDir], {
      env: { ...process.env, RUST_LOG: 'warn', ...env, PARLEY_SERVER__WEB_DIR: join(ROOT, 'web/dist'), PARLEY_SERVER__PUBLIC_URL: url },
      stdio: ['ignore', out, out],
    });
    const started = child;
    for (let attempt = 0; attempt < 150; attempt += 1) {
      if (started.exitCode !== null) break;
      try {
        if ((await fetch(`${url}/api/health`, { method: 'HEAD' })).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((wait) => setTimeout(wait, 200));
    }
    throw new Error(`server on port ${port} did not start:\n${readFileSync(log, 'utf8')}`);
  }

  /** Kills the process (SIGKILL: no graceful close of its sockets) and waits for it to exit. */
  async function stop() {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((done) => running.once('exit', done));
    running.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    url,
    /** What the server has logged so far, both runs (for a failure's message). */
    log: () => readFileSync(log, 'utf8'),
    start,
    stop,
    async close() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
