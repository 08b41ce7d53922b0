#!/usr/bin/env node
// `npm run demo`: the whole pipeline on bundled samples, through the real CLI, offline.
//  1. the sample site (examples/crawl-site: robots.txt, noindex pages, canonicals, hreflang,
//     images, redirects, a broken link) served on 127.0.0.1 and crawled: sitemaps, the HTML site
//     map and the crawl report, with URLs rewritten to the public origin
//  2. the result validated: xmllint against the XSDs, and `sitemapkit validate`
//  3. a static site folder (examples/sample-site) → sitemap, XSL view, HTML site map, robots.txt
//  4. a 60,000-URL JSONL catalogue in two sections → split files, gzip, an index; validated
// Exits non-zero when any step fails. `npm run demo -- --serve` keeps the sample site up and serves
// the crawl's output, so the XSL view can be opened in a browser (browsers apply no XSLT to file://).
import { execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { serveSampleSite } from '../examples/crawl-site/serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'demo-out');
const bin = join(root, 'dist/cli/bin.js');
const xsd = join(root, 'schema/xsd');
const serve = process.argv.includes('--serve');
const rel = (p) => relative(process.cwd(), p) || '.';

function step(title) {
  console.log(`\n== ${title}`);
}

/** Runs the CLI without blocking this process (the sample site is served from here). */
function cli(args, { allow = [0] } = {}) {
  console.log(
    `$ sitemapkit ${args.map((a) => (a.startsWith(root) ? relative(root, a) || '.' : a)).join(' ')}`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      process.stdout.write(stdout.replace(/^(?=.)/gm, '  '));
      if (stderr) process.stdout.write(stderr.replace(/^(?=.)/gm, '  '));
      if (!allow.includes(code)) reject(new Error(`sitemapkit ${args[0]} exited ${code}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

function xmllintAll(dir) {
  let checked = 0;
  for (const name of readdirSync(dir)) {
    if (!/\.xml(\.gz)?$/.test(name)) continue;
    const data = readFileSync(join(dir, name));
    const text = (name.endsWith('.gz') ? gunzipSync(data) : data).toString('utf8');
    const schema = join(xsd, text.includes('<sitemapindex') ? 'siteindex.xsd' : 'all.local.xsd');
    const tmp = join(out, '.check.xml');
    writeFileSync(tmp, text);
    try {
      execFileSync('xmllint', ['--noout', '--nonet', '--schema', schema, tmp], { stdio: 'pipe' });
    } catch (e) {
      throw new Error(`${name} does not validate:\n${e.stderr}`);
    }
    console.log(`  valid (xmllint)  ${rel(join(dir, name))}`);
    checked++;
  }
  rmSync(join(out, '.check.xml'), { force: true });
  return checked;
}

execFileSync(process.execPath, [join(root, 'scripts/ensure-system-deps.mjs'), 'xmllint'], {
  stdio: 'inherit',
});
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

step('1. Crawl the sample site served on loopback');
const site = await serveSampleSite();
const crawlOut = join(out, 'crawl', 'site');
const report = join(out, 'crawl', 'report');
try {
  await cli([
    'crawl',
    site.url,
    '--out',
    crawlOut,
    '--report',
    report,
    '--state',
    join(out, 'crawl', 'state.db'),
    '--public-origin',
    'https://www.example.com',
    '--xsl',
    '--concurrency',
    '4',
  ]);
  const xml = readFileSync(join(crawlOut, 'sitemap.xml'), 'utf8');
  const listed = [...xml.matchAll(/<url><loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
  const expected = [
    '/',
    '/about.html',
    '/blog/',
    '/products/',
    '/contact.html',
    '/en/',
    '/de/',
    '/blog/first-trip.html',
    '/products/boots.html',
    '/blog/stove-review.html',
  ].map((p) => `https://www.example.com${p}`);
  const missing = expected.filter((u) => !listed.includes(u));
  const extra = listed.filter((u) => !expected.includes(u));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `unexpected sitemap: missing ${missing.join(', ') || 'none'}; extra ${extra.join(', ') || 'none'}`,
    );
  }
  console.log(`  the sitemap lists the ${listed.length} indexable, self-canonical pages and nothing else`);
  const rows = readFileSync(join(report, 'urls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const why = (path) => rows.find((r) => new URL(r.url).pathname + new URL(r.url).search === path);
  for (const [path, verdict] of [
    ['/admin/', 'robots'],
    ['/blog/draft-new-range.html', 'noindex'],
    ['/products/cart.html', 'noindex'],
    ['/blog/stove-review-print.html', 'canonicalised'],
    ['/old-boots.html', 'redirect'],
    ['/products/stove-9000.html', 'broken'],
    ['/files/catalogue.pdf', 'non-html'],
  ]) {
    const r = why(path);
    if (r?.verdict !== verdict) throw new Error(`${path}: expected ${verdict}, got ${r?.verdict}`);
    console.log(`  left out  ${path.padEnd(31)} ${verdict}: ${r.reason}`);
  }
  if (rows.some((r) => /login|secret-range|utm_|sessionid/.test(r.url))) {
    throw new Error('a nofollow link or a tracking/session URL was crawled');
  }

  step('2. Validate what the crawl wrote');
  if (xmllintAll(crawlOut) < 1) throw new Error('no sitemap file to validate');
  await cli([
    'validate',
    join(crawlOut, 'sitemap.xml'),
    '--sitemap-url',
    'https://www.example.com/sitemap.xml',
    '--no-robots',
  ]);
} finally {
  if (!serve) await site.close();
}

step('3. A static site folder: sitemap, XSL view, HTML site map, robots.txt');
const folder = join(out, 'folder');
cpSync(join(root, 'examples/sample-site'), folder, { recursive: true });
await cli([
  'generate',
  '--from-dir',
  folder,
  '--exclude',
  'drafts/**',
  '--base-url',
  'https://www.example.com/',
  '--out',
  folder,
  '--xsl',
  '--html',
  '--update-robots',
  join(folder, 'robots.txt'),
]);

step('4. A 60,000-URL catalogue in two sections: split at 50,000, gzip, an index');
const catalog = join(out, 'catalog.jsonl');
const ws = createWriteStream(catalog);
for (let i = 0; i < 60_000; i++) {
  const blog = i % 10 === 0;
  ws.write(
    `${JSON.stringify({
      loc: blog
        ? `https://www.example.com/catalog/blog/post-${i}`
        : `https://www.example.com/catalog/products/item-${i}`,
      lastmod: `2024-05-${String(1 + (i % 28)).padStart(2, '0')}`,
      section: blog ? 'blog' : 'products',
      ...(i % 50 === 0 && { images: [`https://cdn.example.com/img/${i}.jpg`] }),
    })}\n`,
  );
}
await new Promise((r) => ws.end(r));
await cli([
  'generate',
  catalog,
  '--base-url',
  'https://www.example.com/catalog/',
  '--out',
  join(out, 'catalog'),
  '--gzip',
]);
const checked = xmllintAll(folder) + xmllintAll(join(out, 'catalog'));
if (checked < 4) throw new Error(`expected at least 4 sitemap files, validated ${checked}`);

for (const f of [join(crawlOut, 'sitemap.html'), join(report, 'report.html'), join(report, 'urls.csv')]) {
  if (!existsSync(f)) throw new Error(`missing ${f}`);
}
console.log(`
Done. Everything is in ${rel(out)}/:
  crawl/site/sitemap.html      the HTML site map for people: open it in a browser
  crawl/site/sitemap.xml       the crawled site's sitemap; its XSL view needs a web server
                               (browsers apply no XSLT to file://): npm run demo -- --serve
  crawl/report/report.html     the crawl report: status codes, depths, why URLs were left out,
                               broken links and who links to them, redirect chains
  crawl/report/urls.csv        every URL found (also urls.jsonl)
  crawl/state.db               the crawl state (sitemapkit crawl … --resume continues from it)
  folder/sitemap.xml           a static site folder's sitemap, robots.txt updated
  catalog/sitemap.xml.gz       the index over the catalogue's split, gzipped files`);
if (serve) {
  const view = await serveSampleSite({ root: crawlOut });
  console.log(`\nServing the sample site at ${site.url}`);
  console.log(`Serving the crawl's output at ${view.url}:`);
  console.log(`  ${view.url}sitemap.xml    the sitemap in the XSL view`);
  console.log(`  ${view.url}sitemap.html   the HTML site map`);
  console.log('(Ctrl-C to stop)');
}
