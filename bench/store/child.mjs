// One contender of bench/store.mjs, in its own process (so its peak RSS is its own).
//   plain N OUT                 writeSitemaps over N URLs (the baseline)
//   first N STORE OUT           a new store: sync N URLs and build, one unit (SQLite: in a worker thread)
//   first-main N STORE OUT      the same with the connection in thread (SQLite)
//   import N STORE              a new store: sync N URLs, no build
//   build STORE OUT             build from the store alone (STORE in the place of N)
//   delta N STORE OUT spread|cluster   1,000 added, 1,000 removed, 1,000 changed, then a build
//   delta-full …                the same, the files' layouts deleted first (written in full)
//   resync N STORE OUT          the whole set again with those 3,000 changes, synced and built
// SK_GZIP=1 builds a gzipped set. delta and resync print how many files were written (spliced: how
// many of those were spliced from their previous bytes).
import { readdirSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { openStore } from '../../dist/store/index.js';
import { writeSitemaps } from '../../dist/writer/index.js';

const [mode, nText, ...rest] = process.argv.slice(2);
const BASE = 'https://www.example.com/';

function* urls(n, { skip = () => false, changed = () => false } = {}) {
  for (let i = 0; i < n; i++) {
    if (skip(i)) continue;
    const e = { loc: `${BASE}products/item-${i}.html` };
    if (changed(i)) e.priority = 0.9;
    yield e;
  }
}

/** The 3,000 changes: spread over the whole set, or clustered at its end (a few files). */
function delta(n, how) {
  const step = how === 'spread' ? Math.floor(n / 1000) : 1;
  const first = how === 'spread' ? 0 : n - 3000;
  const removed = new Set();
  const changed = new Set();
  for (let k = 0; k < 1000; k++) {
    removed.add(how === 'spread' ? k * step + 1 : first + k);
    changed.add(how === 'spread' ? k * step + 2 : first + 1000 + k);
  }
  const added = Array.from({ length: 1000 }, (_, k) => ({ loc: `${BASE}new/item-${k}.html` }));
  return { removed, changed, added };
}

/** CPU seconds of this process's main thread, and of its busiest other thread (Linux: /proc). */
function threadCpu() {
  const cpu = (task) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  };
  try {
    const others = readdirSync('/proc/self/task').filter((t) => Number(t) !== process.pid);
    return { main: cpu(process.pid), other: Math.max(0, ...others.map(cpu)) };
  } catch {
    return { main: Number.NaN, other: Number.NaN };
  }
}

const n = Number(nText);
const gzip = process.env.SK_GZIP === '1';
let spliced = 0;
const onStep = (step) => {
  if (step.startsWith('build:spliced:')) spliced++;
};
// In-process times (ms): the CMS hook's imports and the build apart, without Node's start-up.
const times = {};
const timed = async (name, fn) => {
  const t0 = performance.now();
  const out = await fn();
  times[name] = (times[name] ?? 0) + performance.now() - t0;
  return out;
};
const report = (r) =>
  console.log(
    JSON.stringify({
      rewritten: r.files.filter((f) => f.change !== 'kept').length,
      files: r.files.length,
      spliced,
      times,
    }),
  );
if (mode === 'plain') {
  await writeSitemaps(urls(n), { outDir: rest[0], baseUrl: BASE, dedupe: true });
} else if (mode === 'first' || mode === 'first-main') {
  // first-main: the connection kept in thread (what a first build cost before the worker thread).
  const s = await openStore(rest[0], { baseUrl: BASE, worker: mode === 'first' });
  const elu = performance.eventLoopUtilization();
  await timed('first', () => s.syncAndBuild(urls(n), { outDir: rest[1], gzip }));
  // Where the time went: CPU seconds of the main thread and of the busiest other thread (the
  // store's worker thread, when there is one), and how long the main thread waited, idle.
  const threads = threadCpu();
  const idle = performance.eventLoopUtilization(elu).idle;
  await s.close();
  console.log(JSON.stringify({ times, threads, idle }));
} else if (mode === 'import') {
  const s = await openStore(rest[0], { baseUrl: BASE });
  await s.sync(urls(n));
  await s.close();
} else if (mode === 'build') {
  const s = await openStore(nText);
  await s.build({ outDir: rest[0] });
  await s.close();
} else if (mode === 'delta' || mode === 'delta-full') {
  if (mode === 'delta-full') {
    // The layouts gone: every touched file is serialised in full (the baseline of splicing).
    const db = new Database(rest[0]);
    db.exec('DELETE FROM layouts');
    db.close();
  }
  const d = delta(n, rest[2]);
  const s = await openStore(rest[0], { onStep });
  await timed('imports', () => s.add(d.added));
  await timed('imports', () => s.remove([...d.removed].map((i) => `${BASE}products/item-${i}.html`)));
  await timed('imports', () =>
    s.add([...d.changed].map((i) => ({ loc: `${BASE}products/item-${i}.html`, priority: 0.9 }))),
  );
  report(await timed('build', () => s.build({ outDir: rest[1], gzip })));
  await s.close();
} else if (mode === 'resync') {
  const d = delta(n, rest[2]);
  const s = await openStore(rest[0], { onStep });
  const all = function* () {
    yield* urls(n, { skip: (i) => d.removed.has(i), changed: (i) => d.changed.has(i) });
    yield* d.added;
  };
  report(await s.syncAndBuild(all(), { outDir: rest[1], gzip }));
  await s.close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
