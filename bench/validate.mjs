#!/usr/bin/env node
// Validator benchmark (issue 5): a tree of 1,000,000 URLs (20 files of 50,000 and an index, written
// by sitemapkit's writer) validated by each contender in its own process, in the same run:
// - sitemapkit: validateSitemap, recursive (library) and `sitemapkit validate -r` (CLI);
// - the npm `sitemap` package: XMLToSitemapItemStream with ErrorLevel.THROW over each file, and its
//   xmlLint (xmllint --schema, what `sitemap --validate` runs), one file at a time.
// Prints seconds, URLs/s, the ratio to sitemapkit's library and peak RSS. Times are the best of
// --runs; peak RSS the worst. Usage: npm run build && node bench/validate.mjs [--urls N] [--runs N] [--quick]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeSitemaps } from '../dist/index.js';
import { benchFlags, fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const flags = benchFlags({ urls: { value: 1_000_000, quick: 20_000 } });
const N = flags.urls;
const RUNS = flags.runs;
const FREQS = ['daily', 'weekly', 'monthly'];
const BASE = 'https://example.com/';

const dir = join(OUT, `validate-tree-${N}`);
if (!existsSync(join(dir, 'sitemap.xml'))) {
  function* entries() {
    for (let i = 0; i < N; i++) {
      yield {
        loc: `${BASE}products/${i % 1000}/item-${i}`,
        lastmod: `20${String(10 + (i % 15))}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        changefreq: FREQS[i % 3],
        priority: (i % 10) / 10,
      };
    }
  }
  const t = Date.now();
  await writeSitemaps(entries(), { outDir: dir, baseUrl: BASE });
  console.log(`wrote the tree in ${((Date.now() - t) / 1000).toFixed(1)} s: ${dir}`);
}
const files = readdirSync(dir).filter((n) => /^sitemap-\d+\.xml$/.test(n)).length;
const root = join(dir, 'sitemap.xml');
const sitemapDir = join(ROOT, 'node_modules/sitemap');

const contenders = [
  {
    name: 'sitemapkit validateSitemap (recursive)',
    args: [join(ROOT, 'bench/validate-peers/sitemapkit.mjs'), root, `${BASE}sitemap.xml`],
  },
  {
    name: 'sitemapkit validate -r (CLI, JSON)',
    args: [
      join(ROOT, 'dist/cli/bin.js'),
      'validate',
      root,
      '-r',
      '--sitemap-url',
      `${BASE}sitemap.xml`,
      '--json',
      '--no-config',
    ],
  },
  {
    name: 'sitemap: XMLToSitemapItemStream THROW',
    args: [join(ROOT, 'bench/validate-peers/sitemap-stream.mjs'), dir],
  },
  {
    name: 'sitemap: xmlLint (xmllint --schema)',
    args: [join(ROOT, 'bench/validate-peers/sitemap-xmllint.mjs'), dir],
  },
];

function summaryOf(stdout) {
  try {
    const { urls, errors, warnings, infos } = JSON.parse(stdout).summary;
    return JSON.stringify({ urls, errors, warnings, infos });
  } catch {
    return stdout.slice(0, 200);
  }
}

const best = new Map();
for (let run = 0; run < RUNS; run++) {
  for (const c of contenders) {
    const r = await runNode(c.args);
    if (r.code !== 0 && !c.name.includes('CLI')) throw new Error(`${c.name} failed (${r.code}): ${r.stderr}`);
    const prev = best.get(c.name);
    best.set(c.name, {
      secs: Math.min(prev?.secs ?? Number.POSITIVE_INFINITY, r.secs),
      rss: Math.max(prev?.rss ?? 0, r.rssMiB),
      out: c.name.includes('CLI') ? summaryOf(r.stdout) : r.stdout.trim().split('\n').at(-1),
    });
  }
}

// xmllint's own memory (the node process above only waits for it): one run on one file.
const one = join(dir, 'sitemap-00001.xml');
const time = spawnSync(
  '/usr/bin/time',
  ['-f', '%M', 'xmllint', '--noout', '--schema', join(sitemapDir, 'schema/all.xsd'), one],
  {
    encoding: 'utf8',
  },
);
const xmllintMiB = Number(time.stderr.trim().split('\n').at(-1)) / 1024;

const base = best.get(contenders[0].name).secs;
const rows = contenders.map((c) => {
  const b = best.get(c.name);
  const rss = c.name.includes('xmlLint') ? `${fmt.mb(b.rss)} + xmllint ${fmt.mb(xmllintMiB)}` : fmt.mb(b.rss);
  return {
    contender: c.name,
    seconds: fmt.s(b.secs),
    'URLs/s': fmt.n(N / b.secs),
    ratio: `${(b.secs / base).toFixed(2)}x`,
    'peak RSS MiB': rss,
  };
});
console.log(
  `\n${N.toLocaleString('en-US')} URLs in ${files} files + an index; best of ${RUNS} run(s); node ${process.version}\n`,
);
table(rows, ['contender', 'seconds', 'URLs/s', 'ratio', 'peak RSS MiB']);
console.log('\noutputs:');
for (const c of contenders) console.log(`  ${c.name}: ${best.get(c.name).out}`);
