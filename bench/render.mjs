#!/usr/bin/env node
// Rendering benchmark (issue 14). Two parts, each contender in its own process, side by side in the
// same run (the order alternating), medians of --runs (default 3):
//  1. `crawl --render` on the bundled single-page application (test/fixtures/spa, served by
//     test/support/spa-server.mjs) scaled to --pages pages (default 2,000: products from its JSON
//     API), against crawlee's PlaywrightCrawler (bench/peers/render-crawlee.mjs) over the same
//     Chromium at the same concurrency: pages, pages per second, the ratio, and peak memory of the
//     whole process tree (the browser's processes included), sampled from /proc: the sum of RSS
//     (shared pages counted in every process) and of PSS (shared pages divided among them).
//  2. `crawl --render auto` on a static site (PostgreSQL 15's HTML docs, postgresql-doc-15, served
//     by bench/crawl-server.mjs) against the plain crawl: seconds and the ratio (target <= 1.5x).
// Usage: node bench/render.mjs [--pages 2000] [--runs 3] [--concurrency 2] [--no-peer] [--peer-first] [--only spa|auto]
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startSpaServer } from '../test/support/spa-server.mjs';
import { fmt, OUT, ROOT, table } from './lib.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i === -1 ? dflt : argv[i + 1];
};
const PAGES = Number(opt('--pages', 2000));
const RUNS = Math.max(1, Number(opt('--runs', 3)));
const CONCURRENCY = Number(opt('--concurrency', 2));
const ONLY = opt('--only', undefined);
const withPeer = !argv.includes('--no-peer');
// A single run on a machine that gets busier as it goes can favour whoever runs first: --peer-first
// gives crawlee the first (quieter) slot so a win for sitemapkit is not an artefact of the order.
const PEER_FIRST = argv.includes('--peer-first');
const BIN = join(ROOT, 'dist/cli/bin.js');
const PG_DOCS = '/usr/share/doc/postgresql-doc-15/html';

/** RSS and PSS (KiB) of a process and all its descendants, from /proc. */
function treeMemory(root) {
  const parent = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let rss = 0;
  let pss = 0;
  for (const pid of tree) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {}
  }
  return { rss, pss, processes: tree.size };
}

/** Runs `node args…`, sampling the memory of its process tree every 100 ms. */
function run(args) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const peak = { rss: 0, pss: 0, processes: 0 };
    const timer = setInterval(() => {
      const m = treeMemory(child.pid);
      peak.rss = Math.max(peak.rss, m.rss);
      peak.pss = Math.max(peak.pss, m.pss);
      peak.processes = Math.max(peak.processes, m.processes);
    }, 100);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      resolve({
        code,
        secs,
        stdout,
        stderr,
        rssMiB: peak.rss / 1024,
        pssMiB: peak.pss / 1024,
        processes: peak.processes,
      });
    });
  });
}

function crawlArgs(name, url, extra) {
  const out = join(OUT, `render-${name}`);
  rmSync(out, { recursive: true, force: true });
  return [
    BIN,
    'crawl',
    url,
    '--out',
    join(out, 'site'),
    '--report',
    join(out, 'report'),
    '--state',
    join(out, 'state.db'),
    '--quiet',
    '--json',
    ...extra,
  ];
}

async function sitemapkit(name, url, extra) {
  const r = await run(crawlArgs(name, url, extra));
  if (r.code !== 0) throw new Error(`sitemapkit crawl exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  const rendered = readFileSync(join(OUT, `render-${name}`, 'report', 'urls.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"rendered":"yes"')).length;
  return { ...r, pages: result.stats.requests, rendered };
}

async function crawlee(url) {
  const r = await run([join(ROOT, 'bench/peers/render-crawlee.mjs'), url, String(CONCURRENCY)]);
  if (r.code !== 0) throw new Error(`crawlee exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  return { ...r, pages: JSON.parse(r.stdout.trim().split('\n').pop()).pages };
}

function startStatic(root) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/crawl-server.mjs'), root, '/'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8').once('data', (d) => {
      const m = /PORT=(\d+)/.exec(d);
      if (m === null) reject(new Error(`server said ${d}`));
      else resolve({ origin: `http://127.0.0.1:${m[1]}`, close: () => child.kill() });
    });
    child.on('error', reject);
  });
}

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 === 1 ? a[m] : (a[m - 1] + a[m]) / 2;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

if (ONLY === undefined || ONLY === 'spa') {
  // The application's own pages (11) and static pages (6) plus the products: --pages in all.
  const site = await startSpaServer({ products: Math.max(1, PAGES - 17) });
  try {
    const url = `${site.origin}/`;
    console.log(
      `\ncrawl --render on the bundled application, ${PAGES} pages, concurrency ${CONCURRENCY}: ${url}`,
    );
    const ours = [];
    const theirs = [];
    const ratios = [];
    for (let i = 0; i < RUNS; i++) {
      const before = load();
      const flags = [
        '--render',
        '--render-concurrency',
        String(CONCURRENCY),
        '--concurrency',
        String(CONCURRENCY),
      ];
      let sk;
      let p;
      if ((i % 2 === 0) !== PEER_FIRST || !withPeer) {
        sk = await sitemapkit('spa', url, flags);
        if (withPeer) p = await crawlee(url);
      } else {
        p = await crawlee(url);
        sk = await sitemapkit('spa', url, flags);
      }
      ours.push(sk);
      let line = `  run ${i + 1}/${RUNS} (load ${before}): sitemapkit ${sk.pages} pages in ${fmt.s(sk.secs)} s, RSS ${fmt.mb(sk.rssMiB)} MiB, PSS ${fmt.mb(sk.pssMiB)} MiB`;
      if (p !== undefined) {
        theirs.push(p);
        const ratio = sk.pages / sk.secs / (p.pages / p.secs);
        ratios.push(ratio);
        line += `; crawlee ${p.pages} pages in ${fmt.s(p.secs)} s, RSS ${fmt.mb(p.rssMiB)} MiB, PSS ${fmt.mb(p.pssMiB)} MiB; speed ratio ${ratio.toFixed(2)}x`;
      }
      console.log(line);
    }
    const row = (name, rs) => ({
      contender: name,
      pages: rs.at(-1).pages,
      's (median)': fmt.s(median(rs.map((r) => r.secs))),
      'pages/s': median(rs.map((r) => r.pages / r.secs)).toFixed(1),
      'peak RSS MiB (tree)': fmt.mb(median(rs.map((r) => r.rssMiB))),
      'peak PSS MiB (tree)': fmt.mb(median(rs.map((r) => r.pssMiB))),
      processes: rs.at(-1).processes,
    });
    const rows = [row('sitemapkit crawl --render', ours)];
    if (theirs.length > 0) rows.push(row('crawlee PlaywrightCrawler', theirs));
    console.log('');
    table(rows, Object.keys(rows[0]));
    if (ratios.length > 0) {
      console.log(
        `\nspeed ratio (sitemapkit pages/s over crawlee's, median of ${ratios.length} same-run ratios): ${median(ratios).toFixed(2)}x; memory ratio (PSS): ${(median(ours.map((r) => r.pssMiB)) / median(theirs.map((r) => r.pssMiB))).toFixed(2)}x`,
      );
    }
  } finally {
    await site.close();
  }
}

if (ONLY === undefined || ONLY === 'auto') {
  if (!existsSync(PG_DOCS)) {
    console.log(`\n--render auto: ${PG_DOCS} is missing (apt-get install postgresql-doc-15); skipped`);
  } else {
    const server = await startStatic(PG_DOCS);
    try {
      const url = `${server.origin}/`;
      console.log(`\ncrawl --render auto against the plain crawl on PostgreSQL 15's HTML docs: ${url}`);
      const plain = [];
      const auto = [];
      const ratios = [];
      const flags = ['--concurrency', '8'];
      for (let i = 0; i < RUNS; i++) {
        let a;
        let p;
        if (i % 2 === 0) {
          p = await sitemapkit('plain', url, flags);
          a = await sitemapkit('auto', url, [...flags, '--render', 'auto']);
        } else {
          a = await sitemapkit('auto', url, [...flags, '--render', 'auto']);
          p = await sitemapkit('plain', url, flags);
        }
        plain.push(p);
        auto.push(a);
        ratios.push(a.secs / p.secs);
        console.log(
          `  run ${i + 1}/${RUNS} (load ${load()}): plain ${p.pages} pages in ${fmt.s(p.secs)} s, ${fmt.mb(p.rssMiB)} MiB; --render auto ${a.pages} pages (${a.rendered} rendered) in ${fmt.s(a.secs)} s, ${fmt.mb(a.rssMiB)} MiB; time ratio ${(a.secs / p.secs).toFixed(2)}x`,
        );
      }
      console.log(
        `\n--render auto over plain (median of ${ratios.length} same-run time ratios): ${median(ratios).toFixed(2)}x (target at most 1.5x); peak RSS of the tree ${fmt.mb(median(auto.map((r) => r.rssMiB)))} MiB against ${fmt.mb(median(plain.map((r) => r.rssMiB)))} MiB`,
      );
    } finally {
      server.close();
    }
  }
}
