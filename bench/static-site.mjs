#!/usr/bin/env node
// `generate --from-dir` on a static site folder (what the Astro, Next.js and Vite integrations
// read after a build): N HTML pages of about 6 KB in 100 folders, each with a title, a canonical and
// three images (one the site's logo, a template image). Contenders, each
// in its own process, interleaved run by run: this build, and with `--before DIR` another build's
// dist/ (the reading before a change). `--cold` empties the kernel's page cache before every run
// (root only: /proc/sys/vm/drop_caches), which is a fresh CI machine's first read of a build.
// Prints the medians of wall and CPU seconds, the ratio, peak RSS, and checks that both
// contenders wrote the same sitemap files.
// Usage: node bench/static-site.mjs [--pages N] [--runs N] [--before DIR] [--cold] [--quick]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchFlags, fmt, median, OUT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({
  pages: { value: 20_000, quick: 300 },
  runs: 3,
  before: null,
  cold: false,
});
const N = flags.pages;
const SITE = join(OUT, `static-site-${N}`);
const BASE = 'https://example.com/';

function page(dir, i) {
  const url = `${BASE}${dir}/page-${i}.html`;
  const filler = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(80)}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${dir} ${i}</title>
<link rel="canonical" href="${url}">
<meta name="description" content="Page ${i} of ${dir}"></head><body>
<img src="/logo.png" alt="logo"><img src="/img/${dir}-${i}.jpg" alt=""><img src="/img/${dir}-${i}-b.jpg" alt="">
<nav><a href="/">Home</a> <a href="/${dir}/">Section</a></nav>${filler}</body></html>\n`;
}

if (!existsSync(join(SITE, 'done'))) {
  rmSync(SITE, { recursive: true, force: true });
  const dirs = 100;
  for (let d = 0; d < dirs; d++) {
    const dir = `section-${d}`;
    mkdirSync(join(SITE, dir), { recursive: true });
    for (let i = d; i < N; i += dirs) writeFileSync(join(SITE, dir, `page-${i}.html`), page(dir, i));
  }
  writeFileSync(join(SITE, 'done'), '');
}

const contenders = [{ name: 'this build', bin: requireBuild() }];
if (flags.before !== undefined) contenders.push({ name: 'before', bin: join(flags.before, 'cli/bin.js') });

function dropCaches() {
  if (!flags.cold) return;
  execFileSync('sync');
  writeFileSync('/proc/sys/vm/drop_caches', '3');
}

console.log(
  `Static site: ${N.toLocaleString('en-US')} pages; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const results = new Map(contenders.map((c) => [c.name, []]));
for (let run = 0; run < flags.runs; run++) {
  const order = run % 2 === 0 ? contenders : [...contenders].reverse();
  for (const c of order) {
    const out = join(OUT, `static-site-out-${c.name.replace(/\W/g, '')}`);
    rmSync(out, { recursive: true, force: true });
    dropCaches();
    const r = await runNode([
      c.bin,
      'generate',
      '--from-dir',
      SITE,
      '--base-url',
      BASE,
      '--out',
      out,
      '--exclude',
      'done',
    ]);
    if (r.code !== 0) throw new Error(`${c.name} exited ${r.code}: ${r.stderr}`);
    results.get(c.name).push(r);
    console.log(
      `  run ${run + 1} ${c.name}: ${fmt.s(r.secs)} s, CPU ${fmt.s(r.cpuSecs)} s, ${fmt.mb(r.rssMiB)} MiB`,
    );
  }
}

const ref = median(results.get('this build').map((r) => r.secs));
table(
  contenders.map((c) => {
    const rs = results.get(c.name);
    const secs = median(rs.map((r) => r.secs));
    return {
      contender: c.name,
      'median s': fmt.s(secs),
      'CPU s': fmt.s(median(rs.map((r) => r.cpuSecs))),
      'pages/s': fmt.n(N / secs),
      'x this build': (ref / secs).toFixed(2),
      'peak RSS MiB': fmt.mb(Math.max(...rs.map((r) => r.rssMiB))),
    };
  }),
  ['contender', 'median s', 'CPU s', 'pages/s', 'x this build', 'peak RSS MiB'],
);
console.log(
  `Load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}${flags.cold ? '; page cache emptied before every run' : ''}`,
);

if (contenders.length > 1) {
  // The sitemaps must be the same bytes (an index would differ only in its own lastmods).
  const [a, b] = contenders.map((c) => join(OUT, `static-site-out-${c.name.replace(/\W/g, '')}`));
  const children = readdirSync(a).filter((f) => /^sitemap(-\d+)?\.xml$/.test(f));
  if (children.length === 0) throw new Error(`no sitemap in ${a}`);
  for (const f of children) {
    if (!readFileSync(join(a, f)).equals(readFileSync(join(b, f))))
      throw new Error(`${f} differs between the builds`);
  }
  console.log(`The ${children.length} sitemap files are the same bytes in both builds.`);
}
