// bench/parse.mjs contender: `sitemapper` (it fetches URLs only, so files are served on loopback),
// its fields option for loc/lastmod/changefreq/priority, then JSON lines to /dev/null.
// Usage: node sitemapper.mjs file URL | tree URL
import { createWriteStream } from 'node:fs';
import Sitemapper from 'sitemapper';

const [, target] = process.argv.slice(2);
const mapper = new Sitemapper({
  url: target,
  timeout: 600_000,
  concurrency: 4,
  fields: { loc: true, lastmod: true, changefreq: true, priority: true, sitemap: true },
});
const { sites, errors } = await mapper.fetch();
const out = createWriteStream('/dev/null');
let buf = '';
for (const s of sites) {
  buf += `${JSON.stringify(s)}\n`;
  if (buf.length >= 65_536) {
    if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
    buf = '';
  }
}
out.end(buf);
await new Promise((r) => out.on('close', r));
process.stdout.write(`${JSON.stringify({ urls: sites.length, errors: errors.length })}\n`);
