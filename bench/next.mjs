// Next.js post-build benchmark: `sitemapkit next` against next-sitemap 4.2.3 on one server build
// of N prerendered App Router pages (the manifests and HTML `next build` leaves in .next/, made
// here so that N can be large without a build of N pages). Both read the same
// next-sitemap.config.js. They do not do the same work: next-sitemap lists the manifest's paths;
// sitemapkit also reads every page's HTML (title, images, hreflang, canonical, noindex) and checks
// what it writes. Each run is its own process (bench/lib.mjs); medians of RUNS, peak RSS.
//
//   npm run build && node bench/next.mjs [PAGES] [RUNS]        (default 20,000 pages, 3 runs)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fmt, ROOT, runNode, table } from './lib.mjs';

const pages = Number(process.argv[2] ?? 20_000);
const runs = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-next-'));

function put(rel, text) {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

const routes = {};
const filler = '<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit. </p>'.repeat(60);
for (let i = 0; i < pages; i++) {
  const path = i === 0 ? '/' : `/products/${i}`;
  routes[path] = { srcRoute: i === 0 ? '/' : '/products/[id]', initialRevalidateSeconds: false };
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Product ${i}</title><link rel="alternate" hreflang="en" href="https://example.com${path}"/><link rel="alternate" hreflang="x-default" href="https://example.com${path}"/></head><body><img src="/logo.png" alt=""><main><h1>Product ${i}</h1><img src="/img/${i}.jpg" alt="">${filler}</main></body></html>`;
  put(`.next/server/app${i === 0 ? '/index' : path}.html`, html);
}
put(
  '.next/prerender-manifest.json',
  JSON.stringify({ version: 4, routes, dynamicRoutes: {}, notFoundRoutes: [] }),
);
put('.next/routes-manifest.json', JSON.stringify({ version: 3, basePath: '', pages404: true }));
put(
  '.next/app-path-routes-manifest.json',
  JSON.stringify({ '/page': '/', '/products/[id]/page': '/products/[id]' }),
);
put('.next/build-manifest.json', JSON.stringify({ pages: { '/_app': [] } }));
put('.next/export-marker.json', JSON.stringify({ version: 1, exportTrailingSlash: false }));
put('.next/server/pages-manifest.json', JSON.stringify({ '/_app': 'pages/_app.js' }));
put('next-sitemap.config.js', "module.exports = { siteUrl: 'https://example.com', outDir: 'public-ns' };\n");
put('package.json', '{ "private": true }\n');

const contenders = {
  'next-sitemap': [join(ROOT, 'node_modules/next-sitemap/bin/next-sitemap.mjs')],
  'sitemapkit next': [join(ROOT, 'dist/cli/bin.js'), 'next', dir, '--out', 'public-sk'],
};

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const results = {};
for (let r = 0; r < runs; r++) {
  // Contenders in turn, so that a load on the machine falls on both.
  for (const [name, args] of Object.entries(contenders)) {
    const run = await runNodeIn(args);
    if (run.code !== 0) throw new Error(`${name} failed: ${run.stderr}${run.stdout}`);
    results[name] = [...(results[name] ?? []), run];
  }
}

function runNodeIn(args) {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return runNode(args);
  } finally {
    process.chdir(cwd);
  }
}

// URLs in the children (sitemap-0.xml, sitemap-1.xml, …) each wrote.
const count = (folder) =>
  readdirSync(folder)
    .filter((f) => /^sitemap-\d+\.xml$/.test(f))
    .reduce((n, f) => n + (readFileSync(join(folder, f), 'utf8').match(/<loc>/g) ?? []).length, 0);
const urls = {
  'next-sitemap': count(join(dir, 'public-ns')),
  'sitemapkit next': count(join(dir, 'public-sk')),
};
const base = median(results['next-sitemap'].map((x) => x.secs));
console.log(
  `Next.js server build of ${fmt.n(pages)} prerendered pages (${fmt.n((pages * 4.3) / 1024)} MB of HTML), medians of ${runs}`,
);
table(
  Object.entries(results).map(([who, rs]) => ({
    who,
    urls: fmt.n(urls[who]),
    'wall s': fmt.s(median(rs.map((x) => x.secs))),
    'cpu s': fmt.s(median(rs.map((x) => x.cpuSecs))),
    'vs next-sitemap': `${(median(rs.map((x) => x.secs)) / base).toFixed(2)}×`,
    'peak RSS MiB': fmt.mb(Math.max(...rs.map((x) => x.rssMiB))),
  })),
  ['who', 'urls', 'wall s', 'cpu s', 'vs next-sitemap', 'peak RSS MiB'],
);
if (process.env.KEEP === undefined) rmSync(dir, { recursive: true, force: true });
else console.log(dir);
