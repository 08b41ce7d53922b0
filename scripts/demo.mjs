#!/usr/bin/env node
// `npm run demo`: the writer end to end on bundled samples, through the real CLI.
//  1. the sample static site (examples/sample-site) → sitemap, XSL view, HTML site map, robots.txt
//  2. a 120,000-URL product catalogue in two sections → split files, gzip, an index
//  3. every XML file validated with xmllint against the protocol's XSDs
//  4. the site served on 127.0.0.1 and its sitemap fetched back over HTTP
// Exits non-zero when any step fails. `npm run demo -- --serve` keeps the server up for a browser.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'demo-out');
const bin = join(root, 'dist/cli/bin.js');
const xsd = join(root, 'schema/xsd');
const serve = process.argv.includes('--serve');

function step(title) {
  console.log(`\n== ${title}`);
}

function cli(args) {
  console.log(
    `$ sitemapkit ${args.map((a) => (a.startsWith(root) ? relative(root, a) || '.' : a)).join(' ')}`,
  );
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  process.stdout.write(r.stdout.replace(/^/gm, '  '));
  if (r.stderr) process.stdout.write(r.stderr.replace(/^/gm, '  '));
  if (r.status !== 0) throw new Error(`sitemapkit ${args[0]} exited ${r.status}`);
}

execFileSync(process.execPath, [join(root, 'scripts/ensure-system-deps.mjs'), 'xmllint'], {
  stdio: 'inherit',
});
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

step('1. A static site folder: sitemap, XSL view, HTML site map, robots.txt');
const site = join(out, 'site');
cpSync(join(root, 'examples/sample-site'), site, { recursive: true });
cli([
  'generate',
  '--from-dir',
  site,
  '--exclude',
  'drafts/**',
  '--base-url',
  'https://www.example.com/',
  '--out',
  site,
  '--xsl',
  '--html',
  '--update-robots',
  join(site, 'robots.txt'),
]);

step('2. A 120,000-URL catalogue in two sections: split at 50,000, gzip, an index');
const catalog = join(out, 'catalog.jsonl');
const ws = createWriteStream(catalog);
for (let i = 0; i < 120_000; i++) {
  const blog = i % 10 === 0;
  const day = String(1 + (i % 28)).padStart(2, '0');
  ws.write(
    `${JSON.stringify({
      loc: blog
        ? `https://www.example.com/catalog/blog/post-${i}`
        : `https://www.example.com/catalog/products/item-${i}`,
      lastmod: `2024-05-${day}`,
      section: blog ? 'blog' : 'products',
      ...(i % 50 === 0 && { images: [`https://cdn.example.com/img/${i}.jpg`] }),
    })}\n`,
  );
}
await new Promise((r) => ws.end(r));
cli([
  'generate',
  catalog,
  '--base-url',
  'https://www.example.com/catalog/',
  '--out',
  join(out, 'catalog'),
  '--gzip',
]);

step('3. Every XML file validated with xmllint against the XSDs');
let checked = 0;
for (const dir of [site, join(out, 'catalog')]) {
  for (const name of readdirSync(dir)) {
    if (!/\.xml(\.gz)?$/.test(name)) continue;
    const data = readFileSync(join(dir, name));
    const text = (name.endsWith('.gz') ? gunzipSync(data) : data).toString('utf8');
    const schema = join(xsd, text.includes('<sitemapindex') ? 'siteindex.xsd' : 'all.local.xsd');
    const tmp = join(out, '.check.xml');
    writeFileSync(tmp, text);
    const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema, tmp], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${name} does not validate:\n${r.stderr}`);
    console.log(`  valid  ${relative(out, join(dir, name))}`);
    checked++;
  }
}
rmSync(join(out, '.check.xml'), { force: true });
if (checked < 5) throw new Error(`expected at least 5 sitemap files, validated ${checked}`);

step('4. The site served on loopback, its sitemap fetched back over HTTP');
const types = {
  '.xml': 'application/xml',
  '.xsl': 'text/xsl',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain',
  '.gz': 'application/gzip',
  '.css': 'text/css',
};
const server = createServer((req, res) => {
  const path = resolve(site, `.${decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)}`);
  if (!path.startsWith(site)) return res.writeHead(403).end();
  try {
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end('not found');
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;
for (const path of ['robots.txt', 'sitemap.xml', 'sitemap.html']) {
  const res = await fetch(base + path);
  if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
  const text = await res.text();
  console.log(
    `  GET ${base}${path} -> ${res.status} ${res.headers.get('content-type')} (${text.length} bytes)`,
  );
}
console.log('\n  robots.txt now ends with:');
console.log(
  readFileSync(join(site, 'robots.txt'), 'utf8')
    .trim()
    .split('\n')
    .slice(-1)
    .map((l) => `    ${l}`)
    .join('\n'),
);

console.log(`
Done. Everything is in ${relative(process.cwd(), out) || out}/:
  site/sitemap.xml       the sample site's sitemap (open ${base}sitemap.xml for the XSL view)
  site/sitemap.html      the HTML site map for people
  site/robots.txt        with its Sitemap: line
  catalog/sitemap.xml.gz the index over the catalogue's split, gzipped files
Run \`npm run demo -- --serve\` to keep the server up and look at them in a browser.`);
if (serve) {
  console.log(`\nServing ${site} at ${base} (Ctrl-C to stop)`);
} else {
  server.close();
}
