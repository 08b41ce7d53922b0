// bench/parse.mjs contender: sitemapkit's library, file or URL → JSON lines (to /dev/null).
// Usage: node sitemapkit.mjs file PATH | tree URL [root | parser]
// `root` (the default) imports the package root; `parser` only dist/parser, to show the parser's
// own cost apart from loading every other module of the package.
import { createWriteStream } from 'node:fs';

// Timed apart: importing the package root loads every module of sitemapkit, not only the parser.
const [mode, target, entry = 'root'] = process.argv.slice(2);
const t0 = performance.now();
const { parseSitemap, parseSitemapTree } = await import(
  entry === 'parser' ? '../../dist/parser/index.js' : '../../dist/index.js'
);
const importMs = performance.now() - t0;

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
