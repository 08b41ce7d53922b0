/**
 * A worker of a shared crawl started before its database is up (a compose file, a server
 * restarting) waits for it, as long as it retries a lost connection, and says so once on stderr
 * (the `crawl-database-waiting` diagnostic); a refused login or a missing database is not waited
 * for. Sequenced on purpose, never by timing: the server is stopped, the worker is started, and
 * the server is started again only once the worker said it waits (its first try failed).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runBin } from '../support/cli.js';
import { eventually, type Postgres, pgCtl, serverSettings, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import {
  countingSite,
  pageHits,
  resultOf,
  sitemapUrls,
  startWorker,
  type WorkerRun,
} from './postgres-helpers.js';

const pg = usePostgres();
const running: WorkerRun[] = [];
const children: ChildProcess[] = [];
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const w of running.splice(0)) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(closing.splice(0).map((close) => close()));
  // Every test starts with the server up.
  if (!up) start(pg());
});

let up = true;

function stop(server: Postgres): void {
  pgCtl(server, '-m', 'fast', '-w', 'stop');
  up = false;
}

/** Starts the stopped cluster again on its port (pg_ctl start does not reuse the last options). */
function start(server: Postgres): void {
  pgCtl(server, '-w', '-t', '60', '-o', serverSettings(server.port, server.dir), 'start');
  up = true;
}

describe('a worker started before its database is up', () => {
  it('crawl --state waits for the server, says so once on stderr, then crawls the whole site', async () => {
    const site = await countingSite(12);
    closing.push(() => site.close());
    const dir = tempDir('sk-pg-late');
    stop(pg());
    const child = spawn(
      process.execPath,
      [
        BIN,
        'crawl',
        site.url,
        '--out',
        join(dir, 'out'),
        '--no-report',
        '--state',
        pg().url,
        '--crawl-id',
        'late',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    children.push(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // The worker's first try failed and it said so: only now does the server start.
    await eventually(() => stderr.includes('crawl-database-waiting') || child.exitCode !== null, 60_000);
    expect(stderr).toContain(
      `info crawl-database-waiting: ${pg().url.replace(/:[^:@/]*@/, ':***@')} (schema crawl_late): the database cannot be reached yet (the connection was refused): waiting up to 60 s for it`,
    );
    start(pg());
    expect(await exited, stderr).toBe(0);
    expect(stderr.match(/crawl-database-waiting/g)).toHaveLength(1);
    expect(sitemapUrls(join(dir, 'out')).length).toBeGreaterThan(0);
    expect([...pageHits(site).values()].filter((n) => n > 1)).toEqual([]);
    // crawl-worker's own first connection (it reads the recorded command first) waits too.
    stop(pg());
    const worker = spawn(process.execPath, [BIN, 'crawl-worker', '--state', pg().url, '--crawl-id', 'late'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    children.push(worker);
    let said = '';
    worker.stderr!.setEncoding('utf8').on('data', (d: string) => {
      said += d;
    });
    const ended = new Promise<number | null>((resolve) => worker.on('close', (code) => resolve(code)));
    await eventually(() => said.includes('crawl-database-waiting') || worker.exitCode !== null, 60_000);
    expect(said).toContain('the database cannot be reached yet (the connection was refused)');
    start(pg());
    // The crawl is finished: the worker has nothing to do, and says so.
    expect(await ended, said).toBe(0);
  }, 180_000);

  it('crawl() with a postgres:// state reports the wait as a diagnostic and completes', async () => {
    const site = await countingSite(12);
    closing.push(() => site.close());
    const dir = tempDir('sk-pg-late-lib');
    stop(pg());
    const w = startWorker({
      start: site.url,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'latelib',
      workerId: 'w1',
      retryBaseMs: 1,
    });
    running.push(w);
    await eventually(
      () => w.lines.some((l) => l.startsWith('diag crawl-database-waiting ')) || w.child.exitCode !== null,
      60_000,
    );
    start(pg());
    const end = await w.done;
    expect(end.code, end.lines.join('\n') + end.stderr).toBe(0);
    expect(end.lines.filter((l) => l.startsWith('diag crawl-database-waiting '))).toHaveLength(1);
    expect(resultOf(end.lines)).toMatchObject({ complete: true, worker: { wroteOutput: true } });
  }, 180_000);

  it('a refused login or a missing database is not waited for: exit 2 with its sentence', async () => {
    const wrong = new URL(pg().url);
    wrong.password = 'not-the-password';
    const login = await runBin(['crawl-worker', '--state', wrong.toString(), '--crawl-id', 'x'], {
      limitMs: 60_000,
    });
    expect(login.code, login.stderr).toBe(2);
    expect(login.stderr).toContain('the server refused the login');
    expect(login.stderr).not.toContain('crawl-database-waiting');
    const missing = await runBin(['crawl-worker', '--state', pg().urlOf('no_such_db'), '--crawl-id', 'x'], {
      limitMs: 60_000,
    });
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toContain('there is no such database');
    expect(missing.stderr).not.toContain('crawl-database-waiting');
    // The library's own first connection, too.
    const site = await countingSite(3);
    closing.push(() => site.close());
    const w = startWorker({
      start: site.url,
      outDir: join(tempDir('sk-pg-login'), 'out'),
      state: wrong.toString(),
      crawlId: 'login',
      retryBaseMs: 1,
    });
    running.push(w);
    const end = await w.done;
    expect(end.code).toBe(2);
    expect(end.lines.some((l) => l.startsWith('diag crawl-database-waiting'))).toBe(false);
    expect(end.lines.find((l) => l.startsWith('error '))).toContain('the server refused the login');
  }, 120_000);
});

describe('crawl --workers N with --connect-timeout', () => {
  it('each worker process waits for its first connection as the flag says (0: not at all)', async () => {
    const site = await countingSite(12);
    closing.push(() => site.close());
    const dir = tempDir('sk-pg-gap');
    // Loaded by every process of the run: a worker (crawl-worker) says it started, then waits for
    // "go" before its first connection, so that the database is stopped in the window between the
    // supervisor's connections and the workers' on purpose, never by timing.
    const hook = join(dir, 'hold-workers.mjs');
    writeFileSync(
      hook,
      `import { existsSync, writeFileSync } from 'node:fs';
if (process.argv.includes('crawl-worker')) {
  writeFileSync(${JSON.stringify(dir)} + '/started-' + process.pid, '');
  while (!existsSync(${JSON.stringify(join(dir, 'go'))})) await new Promise((r) => setTimeout(r, 20));
}
`,
    );
    const child = spawn(
      process.execPath,
      [
        BIN,
        'crawl',
        site.url,
        '--out',
        join(dir, 'out'),
        '--no-report',
        '--state',
        pg().url,
        '--crawl-id',
        'gap',
        '--workers',
        '2',
        '--connect-timeout',
        '0',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `--import=${hook}` },
      },
    );
    children.push(child);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await eventually(
      () => readdirSync(dir).filter((f) => f.startsWith('started-')).length === 2 || child.exitCode !== null,
      60_000,
    );
    expect(child.exitCode, stderr).toBeNull();
    stop(pg());
    writeFileSync(join(dir, 'go'), '');
    // Told not to wait, each worker fails at its first try; before, they waited the default minute.
    await eventually(() => stderr.includes('crawl-database-waiting') || child.exitCode !== null, 60_000);
    expect(stderr).not.toContain('crawl-database-waiting');
    expect(await exited, stderr).toBe(2);
    expect(stderr).toMatch(/worker 1: .*cannot connect to the database/);
    expect(stderr).toMatch(/worker 2: .*cannot connect to the database/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  }, 120_000);
});
