#!/usr/bin/env node
// Crawler benchmark (issue 6). Real documentation sites served from loopback by a static file
// server in its own process (PostgreSQL 15's HTML docs, Debian postgresql-doc-15; Python 3.11's,
// python3.11-doc, mounted at /3/ with --public-origin https://docs.python.org as their canonicals
// say), crawled by sitemapkit's CLI and by the npm `sitemap-generator` package at equal
// concurrency, each in its own process: seconds, pages per second, the ratio, peak RSS and
// coverage against a reference breadth-first crawl. Then a generated site of --synthetic pages
// (default 200,000) through sitemapkit alone, for memory.
// With --runs N (default 1) each documentation site is crawled N times by both, side by side (the
// order alternating), and the speed ratio reported is the median of the N same-run ratios: on a
// shared, loaded machine only ratios taken side by side mean anything. The load average is shown.
// --quick: the synthetic site alone, 2,000 pages, no peer (a smoke run of the script).
// --before DIR: on the synthetic site, a second build of sitemapkit (DIR is its dist/, say main's
// kept aside before a change) crawls too, --runs times side by side with this one (the order
// alternating): the crawl loop's pages per second (requests over the seconds until the last page),
// the seconds after the last page (the output, and Node's start), peak RSS, and the same-run ratios;
// then the output alone: the last crawl's state written again by each build (`crawl --resume` of a
// finished crawl makes no request), --runs times side by side, with its CPU time and its main
// thread's (the report's thread works beside it: on an idle second core the wall time follows the
// longer of the two, which a loaded machine does not show). A build that marks its last page
// (performance.mark, bench/rss-hook.mjs) has its peak RSS printed apart: the crawl's, the output's.
// Usage: node bench/crawl.mjs [--concurrency 8] [--runs N] [--synthetic N] [--no-peer] [--only pg|python|synthetic] [--before DIR] [--quick]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  benchFlags,
  ensureAptPackages,
  fmt,
  load,
  median,
  OUT,
  ROOT,
  requireBuild,
  runNode,
  startCrawlServer,
  table,
} from './lib.mjs';

const flags = benchFlags({
  concurrency: 8,
  synthetic: { value: 200_000, quick: 2000 },
  only: { value: null, quick: 'synthetic' },
  'no-peer': { value: false, quick: true },
  before: null,
});
const CONCURRENCY = flags.concurrency;
const SYNTHETIC = flags.synthetic;
const ONLY = flags.only;
const RUNS = flags.runs;
const withPeer = !flags.noPeer;
const BIN = requireBuild();

const SITES = [
  {
    name: 'pg',
    label: 'PostgreSQL 15 docs',
    pkg: 'postgresql-doc-15',
    root: '/usr/share/doc/postgresql-doc-15/html',
    mount: '/',
    start: '/',
    extra: [],
  },
  {
    name: 'python',
    label: 'Python 3.11 docs',
    pkg: 'python3.11-doc',
    root: '/usr/share/doc/python3.11/html',
    mount: '/3/',
    start: '/3/',
    extra: ['--public-origin', 'https://docs.python.org'],
  },
];

function locsOf(xmlPath) {
  const text = readFileSync(xmlPath, 'utf8');
  if (text.includes('<sitemapindex')) {
    return [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].flatMap((m) =>
      locsOf(join(xmlPath, '..', m[1].split('/').pop())),
    );
  }
  return [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

async function sitemapkit(name, url, extra, bin = BIN) {
  const out = join(OUT, `crawl-${name}`);
  rmSync(out, { recursive: true, force: true });
  const r = await runNode([
    bin,
    'crawl',
    url,
    '--out',
    join(out, 'site'),
    '--report',
    join(out, 'report'),
    '--state',
    join(out, 'state.db'),
    '--concurrency',
    String(CONCURRENCY),
    '--quiet',
    '--json',
    ...extra,
  ]);
  if (r.code !== 0) throw new Error(`sitemapkit crawl exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  return { ...r, out, result, pages: result.stats.requests };
}

async function peer(name, url) {
  const out = join(OUT, `crawl-peer-${name}`);
  rmSync(out, { recursive: true, force: true });
  execFileSync('mkdir', ['-p', out]);
  const file = join(out, 'sitemap.xml');
  const r = await runNode([
    join(ROOT, 'bench/peers/crawl-sitemap-generator.mjs'),
    url,
    file,
    String(CONCURRENCY),
  ]);
  if (r.code !== 0) throw new Error(`sitemap-generator exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  return { ...r, file };
}

function reference(url, mount) {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench/crawl-reference.mjs'), url, mount], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return out.trim().split('\n').filter(Boolean);
}

const rows = [];
const notes = [];
const chosen = SITES.filter((s) => ONLY === undefined || ONLY === s.name);
ensureAptPackages(chosen);
for (const site of chosen) {
  const server = await startCrawlServer([site.root, site.mount]);
  try {
    const url = `${server.origin}${site.start}`;
    console.log(`\n${site.label}: ${url}`);
    const ref = new Set(reference(url, site.mount));
    const fromPublic = (u) => (site.extra[1] === undefined ? u : u.replace(site.extra[1], server.origin));
    const ours = [];
    const theirs = [];
    const ratios = [];
    for (let run = 0; run < RUNS; run++) {
      const before = load();
      // Alternate who goes first, so that a drift in the machine's load does not favour one.
      let sk;
      let p;
      if (run % 2 === 0 || !withPeer) {
        sk = await sitemapkit(site.name, url, site.extra);
        if (withPeer) p = await peer(site.name, url);
      } else {
        p = await peer(site.name, url);
        sk = await sitemapkit(site.name, url, site.extra);
      }
      ours.push(sk);
      let line = `  run ${run + 1}/${RUNS} (load ${before}): sitemapkit ${fmt.n(sk.pages)} pages in ${fmt.s(sk.secs)} s, ${fmt.mb(sk.rssMiB)} MiB`;
      if (p !== undefined) {
        const peerPages = locsOf(p.file).length;
        theirs.push({ ...p, pages: peerPages });
        const ratio = sk.pages / sk.secs / (peerPages / p.secs);
        ratios.push(ratio);
        line += `; sitemap-generator ${fmt.n(peerPages)} in ${fmt.s(p.secs)} s, ${fmt.mb(p.rssMiB)} MiB; ratio ${ratio.toFixed(2)}x`;
      }
      console.log(line);
    }
    const sk = ours[ours.length - 1];
    // Coverage: reference pages in the sitemap, or left out by sitemapkit for a stated reason
    // (noindex, canonical elsewhere); a reference page missing without one is a miss.
    const listedRaw = locsOf(join(sk.out, 'site', 'sitemap.xml'));
    const listed = new Set(listedRaw.map(fromPublic));
    const verdicts = new Map(
      readFileSync(join(sk.out, 'report', 'urls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((r) => [r.url, r]),
    );
    let misses = 0;
    let explained = 0;
    for (const u of ref) {
      if (listed.has(u)) continue;
      const v = verdicts.get(u)?.verdict;
      if (v === 'noindex' || v === 'canonicalised') explained++;
      else misses++;
    }
    const coverage = (ref.size - misses) / ref.size;
    const secs = median(ours.map((r) => r.secs));
    rows.push({
      site: site.label,
      contender: 'sitemapkit',
      pages: fmt.n(sk.pages),
      listed: fmt.n(listed.size),
      seconds: fmt.s(secs),
      'pages/s': fmt.n(sk.pages / secs),
      'peak RSS MiB': fmt.mb(Math.max(...ours.map((r) => r.rssMiB))),
      coverage: `${(coverage * 100).toFixed(1)}% of ${ref.size}`,
    });
    if (explained > 0)
      notes.push(
        `${site.label}: ${explained} reference pages are noindex or canonicalised elsewhere (left out on purpose).`,
      );
    if (withPeer) {
      const p = theirs[theirs.length - 1];
      const their = new Set(locsOf(p.file).map(fromPublic));
      let covered = 0;
      for (const u of ref) if (their.has(u)) covered++;
      const peerSecs = median(theirs.map((r) => r.secs));
      rows.push({
        site: site.label,
        contender: 'sitemap-generator',
        pages: `${fmt.n(p.pages)}*`,
        listed: fmt.n(their.size),
        seconds: fmt.s(peerSecs),
        'pages/s': fmt.n(p.pages / peerSecs),
        'peak RSS MiB': fmt.mb(Math.max(...theirs.map((r) => r.rssMiB))),
        coverage: `${((covered / ref.size) * 100).toFixed(1)}% of ${ref.size}`,
      });
      rows.push({
        site: site.label,
        contender: `median ratio of ${RUNS} run${RUNS === 1 ? '' : 's'} (sitemapkit ÷ peer)`,
        'pages/s': `${median(ratios).toFixed(1)}x`,
      });
      notes.push(`${site.label}: same-run ratios ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}.`);
    }
  } finally {
    server.close();
  }
}

if (ONLY === undefined || ONLY === 'synthetic') {
  const server = await startCrawlServer(['--synthetic', String(SYNTHETIC)]);
  try {
    console.log(`\nSynthetic site: ${SYNTHETIC.toLocaleString('en-US')} pages`);
    const contenders = [{ name: 'sitemapkit', bin: BIN, runs: [] }];
    if (flags.before !== undefined)
      contenders.push({ name: 'sitemapkit before', bin: join(flags.before, 'cli/bin.js'), runs: [] });
    const ratios = { speed: [], output: [], cpu: [] };
    for (let run = 0; run < RUNS; run++) {
      const before = load();
      // Alternate who goes first, so that a drift in the machine's load does not favour one.
      const order = run % 2 === 0 ? contenders : [...contenders].reverse();
      const got = new Map();
      for (const c of order) {
        const r = await sitemapkit(
          `synthetic-${c.runs.length}-${c === contenders[0] ? 'a' : 'b'}`,
          `${server.origin}/`,
          ['--max-per-pattern', '0'],
          c.bin,
        );
        // The loop's seconds are the crawl's own (until the last page); the rest of the process
        // is the output and Node's start.
        const loop = r.result.stats.seconds;
        const res = { ...r, loop, rate: r.pages / loop, after: r.secs - loop };
        c.runs.push(res);
        got.set(c, res);
      }
      const line = contenders
        .map((c) => {
          const x = got.get(c);
          return `${c.name} ${fmt.n(x.rate)} pages/s, ${fmt.s(x.after)} s after the last page, CPU ${fmt.s(x.cpuSecs)} s, ${fmt.mb(x.rssMiB)} MiB${phasesText(x.phases)}`;
        })
        .join('; ');
      if (contenders.length === 2) {
        const [a, b] = contenders.map((c) => got.get(c));
        ratios.speed.push(a.rate / b.rate);
        ratios.output.push(b.after / a.after);
        ratios.cpu.push(b.cpuSecs / a.cpuSecs);
      }
      console.log(`  run ${run + 1}/${RUNS} (load ${before}): ${line}`);
    }
    for (const c of contenders) {
      const last = c.runs[c.runs.length - 1];
      const rate = median(c.runs.map((r) => r.rate));
      rows.push({
        site: `synthetic ${fmt.n(SYNTHETIC)}`,
        contender: c.name,
        pages: fmt.n(last.pages),
        listed: fmt.n(last.result.stats.listed),
        seconds: `${fmt.s(median(c.runs.map((r) => r.secs)))} (${fmt.s(median(c.runs.map((r) => r.after)))} after the last page)`,
        'pages/s': fmt.n(rate),
        'peak RSS MiB': `${fmt.mb(Math.max(...c.runs.map((r) => r.rssMiB)))}${largestPhases(c.runs)}`,
        coverage: `${((last.result.stats.listed / SYNTHETIC) * 100).toFixed(1)}% of ${fmt.n(SYNTHETIC)}`,
      });
    }
    if (contenders.length === 2) await outputOnly(server, contenders);
    if (contenders.length === 2) {
      rows.push({
        site: `synthetic ${fmt.n(SYNTHETIC)}`,
        contender: `median ratio of ${RUNS} run${RUNS === 1 ? '' : 's'} (this ÷ before)`,
        'pages/s': `${median(ratios.speed).toFixed(2)}x`,
        seconds: `output ${median(ratios.output).toFixed(2)}x faster`,
      });
      notes.push(
        `synthetic: same-run speed ratios ${ratios.speed.map((r) => `${r.toFixed(2)}x`).join(', ')}; output ${ratios.output.map((r) => `${r.toFixed(2)}x`).join(', ')}; whole-process CPU (before ÷ this, all threads) ${ratios.cpu.map((r) => `${r.toFixed(2)}x`).join(', ')}, median ${median(ratios.cpu).toFixed(2)}x. Pages per second: requests over the seconds until the last page (the crawl's own stats.seconds). On a loaded machine CPU seconds move far less than the wall clock.`,
      );
    }
  } finally {
    server.close();
  }
}

/**
 * The peak RSS of a crawl before and after its last page (bench/rss-hook.mjs; a build that does not
 * mark its last page has none): the crawl's heap and the output's are told apart.
 */
function phasesText(p) {
  return p === undefined ? '' : ` (crawl ${fmt.mb(p.crawlMiB)}, output ${fmt.mb(p.outputMiB)})`;
}

/** The largest of each phase over the runs, as phasesText prints it. */
function largestPhases(runs) {
  const ps = runs.map((r) => r.phases).filter((p) => p !== undefined);
  if (ps.length === 0) return '';
  return phasesText({
    crawlMiB: Math.max(...ps.map((p) => p.crawlMiB)),
    outputMiB: Math.max(...ps.map((p) => p.outputMiB)),
  });
}

/**
 * The output alone (with --before): the state of this build's last crawl written again by each
 * build, `crawl --resume` of a finished crawl (no request: the sitemaps, the HTML site map and the
 * report from the state, then the state closed), --runs times, the order alternating. The work
 * after the last page without the loop's noise: wall and CPU seconds, peak RSS, same-run ratios.
 */
async function outputOnly(server, contenders) {
  const state = join(contenders[0].runs[contenders[0].runs.length - 1].out, 'state.db');
  const times = new Map(contenders.map((c) => [c, []]));
  const ratios = [];
  for (let run = 0; run < RUNS; run++) {
    const before = load();
    const order = run % 2 === 0 ? contenders : [...contenders].reverse();
    const got = new Map();
    for (const c of order) {
      const dir = join(OUT, `crawl-output-${c === contenders[0] ? 'a' : 'b'}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      copyFileSync(state, join(dir, 'state.db'));
      const r = await runNode([
        c.bin,
        'crawl',
        `${server.origin}/`,
        '--out',
        join(dir, 'site'),
        '--report',
        join(dir, 'report'),
        '--state',
        join(dir, 'state.db'),
        '--resume',
        '--max-per-pattern',
        '0',
        '--quiet',
        '--json',
      ]);
      if (r.code !== 0)
        throw new Error(`${c.name}: crawl --resume exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
      got.set(c, r);
      times.get(c).push(r);
    }
    const [a, b] = contenders.map((c) => got.get(c));
    ratios.push(b.secs / a.secs);
    const line = contenders
      .map((c) => {
        const x = got.get(c);
        return `${c.name} ${fmt.s(x.secs)} s (CPU ${fmt.s(x.cpuSecs)} s, main thread ${fmt.s(x.mainCpuSecs)} s), ${fmt.mb(x.rssMiB)} MiB`;
      })
      .join('; ');
    console.log(`  output only, run ${run + 1}/${RUNS} (load ${before}): ${line}`);
  }
  for (const c of contenders) {
    const rs = times.get(c);
    rows.push({
      site: `synthetic ${fmt.n(SYNTHETIC)}, output only`,
      contender: c.name,
      seconds: `${fmt.s(median(rs.map((r) => r.secs)))} (CPU ${fmt.s(median(rs.map((r) => r.cpuSecs)))}, main thread ${fmt.s(median(rs.map((r) => r.mainCpuSecs)))})`,
      'peak RSS MiB': fmt.mb(Math.max(...rs.map((r) => r.rssMiB))),
    });
  }
  rows.push({
    site: `synthetic ${fmt.n(SYNTHETIC)}, output only`,
    contender: `median ratio of ${RUNS} run${RUNS === 1 ? '' : 's'} (this ÷ before)`,
    seconds: `${median(ratios).toFixed(2)}x faster`,
  });
  notes.push(
    `synthetic, output only (crawl --resume of the finished state): same-run ratios ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}.`,
  );
}

console.log(
  `\nConcurrency ${CONCURRENCY}, loopback, each contender in its own process (peak RSS from process.resourceUsage, the largest of the runs; seconds: the median). Load average at the end: ${load()} on ${availableParallelism()} cores.`,
);
table(rows, ['site', 'contender', 'pages', 'listed', 'seconds', 'pages/s', 'peak RSS MiB', 'coverage']);
console.log('* sitemap-generator reports no request count: its pages are the URLs it listed.');
for (const n of notes) console.log(n);
