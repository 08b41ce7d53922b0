// The npm `sitemap` package, used as its README shows for large sites: JSON lines →
// lineSeparatedURLsToSitemapOptions → SitemapAndIndexStream (50,000 per file), optionally gzip.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { lineSeparatedURLsToSitemapOptions, SitemapAndIndexStream, SitemapStream } from 'sitemap';

const [input, outDir, gzipFlag] = process.argv.slice(2);
const gzip = gzipFlag === 'gzip';
const hostname = 'https://example.com/';
mkdirSync(outDir, { recursive: true });
const pending = [];
const sms = new SitemapAndIndexStream({
  limit: 50000,
  getSitemapStream: (i) => {
    const sitemapStream = new SitemapStream({ hostname });
    const path = `sitemap-${i}.xml${gzip ? '.gz' : ''}`;
    const ws = gzip
      ? sitemapStream.pipe(createGzip()).pipe(createWriteStream(resolve(outDir, path)))
      : sitemapStream.pipe(createWriteStream(resolve(outDir, path)));
    pending.push(new Promise((r) => ws.on('finish', r)));
    return [new URL(path, hostname).toString(), sitemapStream, ws];
  },
});
const stages = [lineSeparatedURLsToSitemapOptions(createReadStream(input), { isJSON: true }), sms];
if (gzip) stages.push(createGzip());
stages.push(createWriteStream(resolve(outDir, `sitemap-index.xml${gzip ? '.gz' : ''}`)));
await pipeline(...stages);
await Promise.all(pending);
