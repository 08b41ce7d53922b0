// bench/parse.mjs contender: sitemapkit's library, file or URL → JSON lines (to /dev/null).
// Usage: node sitemapkit.mjs file PATH | tree URL
import { createWriteStream } from 'node:fs';

// Timed apart: importing the package root loads every module of sitemapkit, not only the parser.
const t0 = performance.now();
const { parseSitemap, parseSitemapTree } = await import('../../dist/index.js');
const importMs = performance.now() - t0;

const [mode, target] = process.argv.slice(2);
const out = createWriteStream('/dev/null');
let urls = 0;
let buf = '';
const result = mode === 'tree' ? parseSitemapTree(target, { concurrency: 4 }) : parseSitemap(target);
for await (const item of result) {
  urls++;
  const json = JSON.stringify(item);
  buf +=
    item.sitemap === undefined ? `${json.slice(0, -1)},"sitemap":${JSON.stringify(target)}}\n` : `${json}\n`;
  if (buf.length >= 65_536) {
    if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
    buf = '';
  }
}
out.end(buf);
await new Promise((r) => out.on('close', r));
process.stdout.write(`${JSON.stringify({ urls, errors: result.errorCount, importMs })}\n`);
