#!/usr/bin/env node
// Audit benchmark (issue 14): a synthetic site of N pages (bench/crawl-server.mjs --synthetic N, in
// its own process on loopback), side by side in the same run:
//   crawl   `sitemapkit crawl URL --out DIR`: a plain crawl of the site (its sitemap is the one audited);
//   audit   `sitemapkit audit URL --sitemap DIR/sitemap.xml --json`: the sitemap read, the site
//           crawled, every listed URL judged against the crawl.
// Each contender runs in its own process, alternating; printed: medians of --runs N (seconds, peak
// RSS) and the audit's ratio to the crawl. The audit of a sitemap made by the crawler must find
// nothing but the one shared title (the home page is page 0 again).
// Usage: node bench/audit.mjs [--runs 3] [--pages 2000] [--concurrency 8] [--quick]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  benchFlags,
  fmt,
  load,
  median,
  OUT,
  requireBuild,
  runNode,
  startCrawlServer,
  table,
} from './lib.mjs';

const flags = benchFlags({ runs: 3, pages: { value: 2000, quick: 200 }, concurrency: 8 });
const RUNS = flags.runs;
const PAGES = flags.pages;
const CONCURRENCY = String(flags.concurrency);
const BIN = requireBuild();

const out = join(OUT, 'audit');
const site = join(out, 'site');
const server = await startCrawlServer(['--synthetic', String(PAGES)]);
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

console.log(
  `Audit of a synthetic site of ${PAGES} pages from ${server.origin}, concurrency ${CONCURRENCY}, ${RUNS} run(s)`,
);
const runs = { crawl: [], audit: [] };
try {
  await crawl(); // unmeasured: warm caches
  for (let run = 0; run < RUNS; run++) {
    const before = load();
    const c = await crawl();
    const a = await audit();
    runs.crawl.push(c);
    runs.audit.push(a);
    console.log(
      `  run ${run + 1}/${RUNS} (load ${before}): crawl ${fmt.s(c.secs)} s, audit ${fmt.s(a.secs)} s`,
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
