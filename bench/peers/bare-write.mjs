// The floor: read the JSON lines and build the XML strings with no checks at all.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createGzip } from 'node:zlib';

const [input, outDir, gzipFlag] = process.argv.slice(2);
const gzip = gzipFlag === 'gzip';
mkdirSync(outDir, { recursive: true });
let file = 0;
let n = 0;
let out;
const done = [];
const open = () => {
  const ws = createWriteStream(resolve(outDir, `sitemap-${++file}.xml${gzip ? '.gz' : ''}`));
  done.push(new Promise((r) => ws.on('close', r)));
  if (gzip) {
    const z = createGzip();
    z.pipe(ws);
    out = z;
  } else out = ws;
  out.write(
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  );
};
const esc = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
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
  buf += `<url><loc>${esc(e.loc)}</loc><lastmod>${e.lastmod}</lastmod><changefreq>${e.changefreq}</changefreq><priority>${e.priority}</priority></url>\n`;
  if (buf.length > 262144) {
    if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
    buf = '';
  }
}
out.write(`${buf}</urlset>\n`);
out.end();
await Promise.all(done);
