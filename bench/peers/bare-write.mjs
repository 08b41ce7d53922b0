// The floor: read the JSON lines and build the same XML strings with no checks at all (no URL
// rule, no date or value checks, no duplicate set, no byte budget, no manifest, no atomic commit):
// readline, JSON.parse, string concatenation into 256 KiB, a file stream (through createGzip for
// gzip). Its children and index are sitemapkit's bytes for inputs whose values are already in
// final form (bench/generate.mjs compares them); only the index's lastmods differ (the time each
// ran) and sitemapkit's manifest has no counterpart here.
import { createReadStream, createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGzip, gzipSync } from 'node:zlib';

const [input, outDir, gzipFlag, base = 'https://example.com/'] = process.argv.slice(2);
const gzip = gzipFlag === 'gzip';
const ext = gzip ? 'xml.gz' : 'xml';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
mkdirSync(outDir, { recursive: true });
let file = 0;
let n = 0;
let out;
const done = [];
const name = (i) => `sitemap-${String(i).padStart(5, '0')}.${ext}`;
const open = () => {
  const ws = createWriteStream(resolve(outDir, name(++file)));
  done.push(new Promise((r) => ws.on('close', r)));
  if (gzip) {
    const z = createGzip();
    z.pipe(ws);
    out = z;
  } else out = ws;
  out.write(`${HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`);
};
const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const esc = (s) => s.replace(/[&<>"']/g, (c) => ESC[c]);
let buf = '';
for await (const line of createInterface({ input: createReadStream(input), crlfDelay: Infinity })) {
  if (line === '') continue;
  const e = JSON.parse(line);
  if (n % 50000 === 0) {
    if (out) {
      out.write(`${buf}</urlset>\n`);
      buf = '';
      out.end();
    }
    open();
  }
  n++;
  buf += `<url><loc>${esc(e.loc)}</loc><lastmod>${e.lastmod}</lastmod><changefreq>${e.changefreq}</changefreq><priority>${e.priority.toFixed(1)}</priority></url>\n`;
  if (buf.length > 262144) {
    if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
    buf = '';
  }
}
out.write(`${buf}</urlset>\n`);
out.end();
await Promise.all(done);
const now = `${new Date().toISOString().slice(0, 19)}Z`;
let index = `${HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n`;
for (let i = 1; i <= file; i++)
  index += `<sitemap><loc>${base}${name(i)}</loc><lastmod>${now}</lastmod></sitemap>\n`;
index += '</sitemapindex>\n';
writeFileSync(resolve(outDir, `sitemap.${ext}`), gzip ? gzipSync(index) : index);
