#!/usr/bin/env node
import { spawn } from 'node:child_process';
// Audit benchmark (issue 14): a synthetic site of N pages (bench/crawl-server.mjs --synthetic N, in
// its own process on loopback), side by side in the same run:
//   crawl   `sitemapkit crawl URL --out DIR`: a plain crawl of the site (its sitemap is the one audited);
//   audit   `sitemapkit audit URL --sitemap DIR/sitemap.xml --json`: the sitemap read, the site
//           crawled, every listed URL judged against the crawl.
// Each contender runs in its own process, alternating; printed: medians of --runs N (seconds, peak
// RSS) and the audit's ratio to the crawl. The audit of a sitemap made by the crawler must find
// nothing but the one shared title (the home page is page 0 again).
// Usage: node bench/audit.mjs [--runs 3] [--pages 2000] [--concurrency 8]
import { existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i === -1 ? dflt : argv[i + 1];
};
const RUNS = Math.max(1, Number(opt('--runs', 3)));
const PAGES = Number(opt('--pages', 2000));
const CONCURRENCY = String(opt('--concurrency', 8));
const BIN = join(ROOT, 'dist/cli/bin.js');
if (!existsSync(BIN)) throw new Error('build first: npm run build');

function startServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/crawl-server.mjs'), ...args], {
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

const out = join(OUT, 'audit');
const site = join(out, 'site');
const server = await startServer(['--synthetic', String(PAGES)]);
const common = ['--concurrency', CONCURRENCY];

async function crawl() {
  rmSync(out, { recursive: true, force: true });
  const args = [
    BIN,
    'crawl',
    `${server.origin}/`,
    '--out',
    site,
    '--no-report',
    '--state',
    join(out, 'state.db'),
  ];
  const r = await runNode([...args, ...common, '--quiet', '--json']);
  if (r.code !== 0) throw new Error(`crawl exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  return { secs: r.secs, rssMiB: r.rssMiB, pages: JSON.parse(r.stdout).stats.requests };
}

async function audit() {
  const args = [BIN, 'audit', `${server.origin}/`, '--sitemap', join(site, 'sitemap.xml'), '--json'];
  const r = await runNode([...args, ...common, '--quiet']);
  if (r.code !== 0) throw new Error(`audit exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  // The synthetic site serves page 0 as its home too: the one true finding is that shared title.
  const other = result.findings.filter((f) => f.code !== 'audit-title-duplicate');
  if (other.length > 0 || result.findings.length !== 2)
    throw new Error(
      `the audit of the crawler's own sitemap found ${JSON.stringify(result.findings.slice(0, 3))}`,
    );
  return { secs: r.secs, rssMiB: r.rssMiB, pages: result.counts.crawled };
}

const median = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 === 1 ? a[m] : (a[m - 1] + a[m]) / 2;
};

console.log(
  `Audit of a synthetic site of ${PAGES} pages from ${server.origin}, concurrency ${CONCURRENCY}, ${RUNS} run(s)`,
);
const runs = { crawl: [], audit: [] };
try {
  await crawl(); // unmeasured: warm caches
  for (let run = 0; run < RUNS; run++) {
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    const c = await crawl();
    const a = await audit();
    runs.crawl.push(c);
    runs.audit.push(a);
    console.log(
      `  run ${run + 1}/${RUNS} (load ${load}): crawl ${fmt.s(c.secs)} s, audit ${fmt.s(a.secs)} s`,
    );
  }
} finally {
  server.close();
}
const base = median(runs.crawl.map((r) => r.secs));
table(
  ['crawl', 'audit'].map((kind) => {
    const secs = median(runs[kind].map((r) => r.secs));
    return {
      run: kind,
      urls: fmt.n(runs[kind][0].pages),
      seconds: fmt.s(secs),
      'x crawl': (secs / base).toFixed(2),
      'peak RSS MiB': fmt.mb(median(runs[kind].map((r) => r.rssMiB))),
    };
  }),
  ['run', 'urls', 'seconds', 'x crawl', 'peak RSS MiB'],
);
