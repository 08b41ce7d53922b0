#!/usr/bin/env node
// Audit benchmark (issue 14): a synthetic site of N pages (bench/crawl-server.mjs --synthetic N, in
// its own process on loopback), side by side in the same run:
//   crawl   `sitemapkit crawl URL --out DIR`: a plain crawl of the site (its sitemap is the one audited);
//   audit   `sitemapkit audit URL --sitemap DIR/sitemap.xml --json`: the sitemap read, the site
//           crawled, every listed URL judged against the crawl;
//   crawl --audit  `sitemapkit crawl URL --out DIR2 --audit --sitemap DIR/sitemap.xml --json`: the
//           crawl and the audit of the same sitemap from one run (what it costs over the crawl
//           alone, against a crawl and an audit run one after the other).
// Each contender runs in its own process, alternating; printed: medians of --runs N (seconds, CPU
// seconds, peak RSS) and each ratio to the crawl. The audit of a sitemap made by the crawler must find nothing
// but the one shared title (the home page is page 0 again).
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
  return { secs: r.secs, cpuSecs: r.cpuSecs, rssMiB: r.rssMiB, pages: JSON.parse(r.stdout).stats.requests };
}

async function audit() {
  const args = [BIN, 'audit', `${server.origin}/`, '--sitemap', join(site, 'sitemap.xml'), '--json'];
  const r = await runNode([...args, ...common, '--quiet']);
  if (r.code !== 0) throw new Error(`audit exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  onlySharedTitle(result);
  return { secs: r.secs, cpuSecs: r.cpuSecs, rssMiB: r.rssMiB, pages: result.counts.crawled };
}

async function crawlAudit() {
  const dir = join(out, 'crawl-audit');
  rmSync(dir, { recursive: true, force: true });
  const args = [BIN, 'crawl', `${server.origin}/`, '--out', join(dir, 'site'), '--no-report'];
  args.push('--state', join(dir, 'state.db'), '--audit', '--sitemap', join(site, 'sitemap.xml'));
  const r = await runNode([...args, ...common, '--quiet', '--json']);
  if (r.code !== 0) throw new Error(`crawl --audit exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  onlySharedTitle(result.audit);
  return { secs: r.secs, cpuSecs: r.cpuSecs, rssMiB: r.rssMiB, pages: result.audit.counts.crawled };
}

function onlySharedTitle(result) {
  // The synthetic site serves page 0 as its home too: the one true finding is that shared title.
  const other = result.findings.filter((f) => f.code !== 'audit-title-duplicate');
  if (other.length > 0 || result.findings.length !== 2)
    throw new Error(
      `the audit of the crawler's own sitemap found ${JSON.stringify(result.findings.slice(0, 3))}`,
    );
}

console.log(
  `Audit of a synthetic site of ${PAGES} pages from ${server.origin}, concurrency ${CONCURRENCY}, ${RUNS} run(s)`,
);
const KINDS = ['crawl', 'audit', 'crawl, then audit', 'crawl --audit'];
const runs = Object.fromEntries(KINDS.map((k) => [k, []]));
try {
  await crawl(); // unmeasured: warm caches
  for (let run = 0; run < RUNS; run++) {
    const before = load();
    const c = await crawl();
    // The two audits alternate which goes first: a drift in the machine's load favours neither.
    let a;
    let ca;
    if (run % 2 === 0) {
      a = await audit();
      ca = await crawlAudit();
    } else {
      ca = await crawlAudit();
      a = await audit();
    }
    runs.crawl.push(c);
    runs.audit.push(a);
    // Both commands, one after the other: what crawl --audit saves.
    runs['crawl, then audit'].push({
      secs: c.secs + a.secs,
      cpuSecs: c.cpuSecs + a.cpuSecs,
      rssMiB: Math.max(c.rssMiB, a.rssMiB),
      pages: a.pages,
    });
    runs['crawl --audit'].push(ca);
    console.log(
      `  run ${run + 1}/${RUNS} (load ${before}): crawl ${fmt.s(c.secs)} s, audit ${fmt.s(a.secs)} s, crawl --audit ${fmt.s(ca.secs)} s`,
    );
  }
} finally {
  server.close();
}
const base = median(runs.crawl.map((r) => r.secs));
// CPU seconds (user + system) move far less than the wall clock on a loaded machine.
const baseCpu = median(runs.crawl.map((r) => r.cpuSecs));
table(
  KINDS.map((kind) => {
    const secs = median(runs[kind].map((r) => r.secs));
    return {
      run: kind,
      urls: fmt.n(runs[kind][0].pages),
      seconds: fmt.s(secs),
      'x crawl': (secs / base).toFixed(2),
      'CPU s': fmt.s(median(runs[kind].map((r) => r.cpuSecs))),
      'CPU x crawl': (median(runs[kind].map((r) => r.cpuSecs)) / baseCpu).toFixed(2),
      'peak RSS MiB': fmt.mb(median(runs[kind].map((r) => r.rssMiB))),
    };
  }),
  ['run', 'urls', 'seconds', 'x crawl', 'CPU s', 'CPU x crawl', 'peak RSS MiB'],
);
