#!/usr/bin/env node
// The shared crawl's benchmark (issue 17). A synthetic loopback site (bench/crawl-server.mjs
// --synthetic N, its own process; 1,000,000 pages by default) crawled by the built CLI: the SQLite
// crawl in one process, then `crawl --state postgres://… --workers W` for each W of --workers
// (default 1,2,4) against a throwaway PostgreSQL cluster started here as the tests start theirs
// (test/support/postgres-cluster.mjs). Each worker's RSS is read from /proc twice a second, in two
// phases: the crawl (its peak, and the peak of its second half against its first: flat or
// growing) and, for the worker that claimed the finish step (seen in the database), the finish
// (the copy into a local state and the writing of the sitemaps); and the
// database's transactions and CPU time (the postmaster's reaped backends) are read before and
// after each run. From the one-worker run it prints the database's cost per page and how many
// workers one PostgreSQL server can feed. Same-run ratios only; the load average is printed.
// --before DIR: a second build of sitemapkit (DIR is its dist/, say main's kept aside before a
// change, inside this checkout such as bench/out/dist-before so that it finds node_modules) crawls
// too, right before this build for each number of workers, against the same database and site.
// Usage: node bench/crawl-postgres.mjs [--pages N] [--workers 1,2,4] [--concurrency 8] [--before DIR] [--quick]
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { startPostgres } from '../test/support/postgres-cluster.mjs';
import { benchFlags, fmt, load, OUT, requireBuild, startCrawlServer, table } from './lib.mjs';

const flags = benchFlags({
  pages: { value: 1_000_000, quick: 2000 },
  workers: '1,2,4',
  concurrency: 8,
  before: null,
});
const PAGES = flags.pages;
const WORKERS = String(flags.workers)
  .split(',')
  .map((w) => Number(w));
const C = String(flags.concurrency);
const BIN = requireBuild();
const HOOK = new URL('./rss-hook.mjs', import.meta.url).href;
const TICK = 100; // clock ticks per second in /proc/PID/stat (USER_HZ)

/** The child processes of `pid` (the CLI's workers), from /proc. */
function children(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A process's VmRSS and VmHWM (its peak so far), KiB, from /proc/PID/status; undefined once it ended. */
function vm(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
    const v = { rss: kib('VmRSS'), hwm: kib('VmHWM') };
    // A process that has exited but not been reaped (a zombie) has a status without memory lines.
    return Number.isNaN(v.rss) || Number.isNaN(v.hwm) ? undefined : v;
  } catch {
    return undefined;
  }
}

/** Samples a second: RSS is read this often, the finish step looked for in the database too. */
const SAMPLE_MS = 500;

/**
 * Runs the CLI with `args`, every Node process of it preloading the RSS hook; reads the RSS of it
 * and its children every {@link SAMPLE_MS}. `finisher()` (when given) answers the pid of the worker
 * that claimed the finish step once one has: that worker's crawl phase ends there, its peak RSS so
 * far (VmHWM, exact) is the crawl's, and the samples after it are the finish's. Returns seconds,
 * the exit code, stdout, and per process its phases: `crawl` (RSS samples, KiB, in order, and the
 * peak), `finish` (samples after the finish was claimed, empty for a worker that did not finish)
 * and `peak` (the whole run's, exact: the hook's getrusage at exit).
 */
function runSampled(args, bin = BIN, finisher = undefined) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, NODE_OPTIONS: `--import=${HOOK}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    /** @type {Map<number, { crawl: number[], crawlHwm: number, finish: number[], finishing: boolean }>} */
    const procs = new Map();
    let asking = false;
    let finishing;
    const sample = () => {
      for (const p of [child.pid, ...children(child.pid)]) {
        const v = vm(p);
        if (v === undefined) continue;
        let s = procs.get(p);
        if (s === undefined) {
          s = { crawl: [], crawlHwm: 0, finish: [], finishing: false };
          procs.set(p, s);
        }
        if (s.finishing) s.finish.push(v.rss);
        else {
          s.crawl.push(v.rss);
          s.crawlHwm = v.hwm;
        }
      }
      if (finisher === undefined || finishing !== undefined || asking) return;
      asking = true;
      finisher()
        .then((pid) => {
          const s = pid === undefined ? undefined : procs.get(pid);
          const v = pid === undefined ? undefined : vm(pid);
          if (s === undefined || v === undefined) return;
          finishing = pid;
          // The peak so far is the crawl's; from here on the samples are the finish's.
          s.crawlHwm = v.hwm;
          s.finishing = true;
          s.finish.push(v.rss);
        })
        .catch(() => undefined)
        .finally(() => {
          asking = false;
        });
    };
    const timer = setInterval(sample, SAMPLE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      const cpu = [...stderr.matchAll(/SK_CPU=(\d+)/g)].reduce((a, m) => a + Number(m[1]) / 1e6, 0);
      const peaks = new Map(
        [...stderr.matchAll(/SK_PID_MAXRSS=(\d+):(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]),
      );
      const phases = new Map();
      for (const [p, s] of procs) {
        const peak = peaks.get(p) ?? Math.max(s.crawlHwm, ...s.finish);
        // A worker that did not finish: its whole run is the crawl. The finisher: the crawl's peak is
        // VmHWM when the finish was claimed; the finish's is the run's when that is higher (exact),
        // else the highest sample after the claim (the finish then stayed under the crawl's peak).
        const crawlPeak = s.finishing ? s.crawlHwm : peak;
        const finishPeak = s.finishing ? (peak > s.crawlHwm ? peak : Math.max(...s.finish)) : undefined;
        phases.set(p, { crawl: s.crawl, crawlPeak, finishPeak, peak });
      }
      resolve({ code, secs, cpu, stdout, stderr, phases, root: child.pid });
    });
  });
}

/**
 * A worker's RSS in MiB: its crawl's peak, its finish's (undefined when it did not finish), and the
 * crawl's growth: the peak of the second half of its crawl samples over the first half's (1.00: flat).
 */
function rssShape(ph) {
  const series = ph.crawl.length > 0 ? ph.crawl : [ph.crawlPeak];
  const half = Math.floor(series.length / 2);
  const first = Math.max(...series.slice(0, Math.max(half, 1)));
  const second = Math.max(...series.slice(half));
  return {
    crawl: ph.crawlPeak / 1024,
    finish: ph.finishPeak === undefined ? undefined : ph.finishPeak / 1024,
    growth: second / first,
  };
}

/** CPU seconds of the postmaster and its reaped children (the backends that ended). */
function postgresCpu(pg) {
  const pid = Number(readFileSync(join(pg.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After ") ": state is field 3; utime, stime, cutime, cstime are fields 14 to 17.
  return [11, 12, 13, 14].reduce((a, i) => a + Number(f[i]), 0) / TICK;
}

async function transactions(pg) {
  const r = await pg.query(
    'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(r.rows[0].n);
}

/**
 * The pid of the worker that claimed the finish step of crawl `id` (the workers table keeps each
 * worker's pid), or undefined before one has (or before the crawl's schema exists).
 */
async function finisherPid(id) {
  const schema = `"crawl_${id}"`;
  const r = await pg.query(
    `SELECT w.pid FROM ${schema}.meta m JOIN ${schema}.workers w ON w.id = m.value WHERE m.key = 'finisher'`,
  );
  return r.rows[0]?.pid;
}

/** The statistics collector flushes about once a second: wait for it before reading. */
const settle = () => new Promise((r) => setTimeout(r, 1500));

const site = await startCrawlServer(['--synthetic', String(PAGES)]);
const pg = await startPostgres();
const start = `${site.origin}/`;
const common = ['--no-report', '--no-html', '--concurrency', C, '--quiet'];
const rows = [];
/** Each run's row as it ends too (a run of a million pages is long: a run cut short keeps what ended). */
function done(row) {
  rows.push(row);
  console.log(
    Object.entries(row)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
  );
}
try {
  console.log(
    `Shared crawl: ${PAGES.toLocaleString('en-US')} synthetic pages on loopback, --concurrency ${C} per process, ${availableParallelism()} cores, load ${load()}`,
  );
  const liteDir = join(OUT, 'crawl-postgres-sqlite');
  rmSync(liteDir, { recursive: true, force: true });
  const lite = await runSampled([
    'crawl',
    start,
    '--out',
    join(liteDir, 'out'),
    '--state',
    join(liteDir, 'state.db'),
    '--json',
    ...common,
  ]);
  if (lite.code !== 0) throw new Error(`the SQLite crawl failed (${lite.code}): ${lite.stderr}`);
  const litePages = JSON.parse(lite.stdout).stats.found;
  const liteShape = rssShape(lite.phases.get(lite.root) ?? { crawl: [], crawlPeak: 0, peak: 0 });
  const liteRate = litePages / lite.secs;
  done({
    run: 'SQLite, 1 process',
    pages: fmt.n(litePages),
    seconds: fmt.s(lite.secs),
    'pages/s': fmt.n(liteRate),
    'vs SQLite': '1.00',
    'crawl: peak RSS/worker MiB': `${fmt.mb(liteShape.crawl)} (whole run)`,
    'finish: peak RSS MiB': '',
    'crawl RSS 2nd/1st half': liteShape.growth.toFixed(2),
    'db tx/s': '',
    'db tx/page': '',
    'db CPU ms/page': '',
    'worker CPU ms/page': ((lite.cpu / litePages) * 1000).toFixed(2),
  });
  let one;
  let oneBefore;
  const builds =
    flags.before === undefined
      ? [{ name: '', bin: BIN }]
      : [
          { name: ' (before)', bin: join(resolve(flags.before), 'cli/bin.js') },
          { name: '', bin: BIN },
        ];
  for (const w of WORKERS)
    for (const build of builds) {
      const id = `bench_${w}${build.name === '' ? '' : '_before'}`;
      const dir = join(OUT, `crawl-postgres-${w}`);
      rmSync(dir, { recursive: true, force: true });
      await settle();
      const tx0 = await transactions(pg);
      const cpu0 = postgresCpu(pg);
      const r = await runSampled(
        [
          'crawl',
          start,
          '--out',
          join(dir, 'out'),
          '--state',
          pg.url,
          '--crawl-id',
          id,
          '--workers',
          String(w),
          ...common,
        ],
        build.bin,
        () => finisherPid(id),
      );
      if (r.code !== 0)
        throw new Error(`the PostgreSQL crawl with ${w} workers failed (${r.code}): ${r.stderr}`);
      await settle();
      const tx = (await transactions(pg)) - tx0;
      const dbCpu = postgresCpu(pg) - cpu0;
      const status = JSON.parse(
        execFileSync(process.execPath, [BIN, 'crawl-status', '--state', pg.url, '--crawl-id', id, '--json'], {
          encoding: 'utf8',
        }),
      );
      const pages = status.done;
      // With one worker the worker is the command's own process; with more, its children.
      const workerPids = w === 1 ? [r.root] : [...r.phases.keys()].filter((p) => p !== r.root);
      const shapes = workerPids.map((p) => rssShape(r.phases.get(p)));
      const finishPeak = shapes.find((s) => s.finish !== undefined)?.finish;
      const growth = Math.max(...shapes.map((s) => s.growth));
      const rate = pages / r.secs;
      const run = { w, pages, secs: r.secs, rate, tx, dbCpu, cpu: r.cpu };
      if (w === 1 && build.name === '') one = run;
      else if (w === 1) oneBefore = run;
      done({
        run: `PostgreSQL, ${w} worker${w === 1 ? '' : 's'}${build.name}`,
        pages: fmt.n(pages),
        seconds: fmt.s(r.secs),
        'pages/s': fmt.n(rate),
        'vs SQLite': (rate / liteRate).toFixed(2),
        'crawl: peak RSS/worker MiB': shapes.map((s) => fmt.mb(s.crawl)).join(' '),
        'finish: peak RSS MiB': finishPeak === undefined ? '?' : fmt.mb(finishPeak),
        'crawl RSS 2nd/1st half': growth.toFixed(2),
        'db tx/s': fmt.n(tx / r.secs),
        'db tx/page': (tx / pages).toFixed(3),
        'db CPU ms/page': ((dbCpu / pages) * 1000).toFixed(3),
        'worker CPU ms/page': ((r.cpu / pages) * 1000).toFixed(2),
      });
      execFileSync(
        process.execPath,
        [BIN, 'crawl-status', '--state', pg.url, '--crawl-id', id, '--drop', '--force'],
        {
          stdio: 'ignore',
        },
      );
    }
  console.log('');
  table(rows, Object.keys(rows[0]));
  if (one !== undefined) {
    console.log('');
    console.log(
      `PostgreSQL 1 worker / SQLite 1 process: ${(one.rate / liteRate).toFixed(2)} in pages/s (target at least 0.70); ${(lite.cpu / litePages / (one.cpu / one.pages)).toFixed(2)} in the crawler's CPU per page (what the rate tends to when the crawl is bound by the worker's CPU, not by a loaded machine's scheduling)`,
    );
    if (oneBefore !== undefined) {
      console.log(
        `PostgreSQL 1 worker, this build / the one before: ${(one.rate / oneBefore.rate).toFixed(2)} in pages/s (before ${(oneBefore.rate / liteRate).toFixed(2)} of SQLite); ${(oneBefore.cpu / oneBefore.pages / (one.cpu / one.pages)).toFixed(2)} in the worker's CPU per page; ${(oneBefore.dbCpu / oneBefore.pages / (one.dbCpu / one.pages)).toFixed(2)} in the database's`,
      );
    }
    // The database's work per page is what bounds the workers one server can feed: a core of the
    // server does 1 / (CPU seconds per page) pages a second of frontier work; a worker crawls at
    // its own rate; their ratio is the workers one server core keeps busy.
    const dbPerPage = one.dbCpu / one.pages;
    const serverCore = 1 / dbPerPage;
    const perCore = serverCore / one.rate;
    console.log(
      `database per page: ${(one.tx / one.pages).toFixed(3)} transactions, ${(dbPerPage * 1000).toFixed(3)} ms of server CPU; one server core does ${fmt.n(serverCore)} pages/s (${fmt.n((serverCore * one.tx) / one.pages)} transactions/s) of frontier work`,
    );
    console.log(
      `one worker crawls ${fmt.n(one.rate)} pages/s here: one PostgreSQL core feeds about ${perCore.toFixed(1)} workers, an 8-core server about ${(8 * perCore).toFixed(0)} (then the commit rate of its disk, ${fmt.n((8 * serverCore * one.tx) / one.pages)} transactions/s, is the next bound)`,
    );
  }
  console.log(`load average at the end: ${load()}`);
} finally {
  site.close();
  await pg.stop();
}
