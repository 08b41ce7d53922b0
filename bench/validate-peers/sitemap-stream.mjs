// The npm `sitemap` package's parser-based validation: every file of the tree through
// XMLToSitemapItemStream with ErrorLevel.THROW (the first invalid value throws), counting items.
import { createReadStream, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorLevel, XMLToSitemapItemStream } from 'sitemap';

const [dir] = process.argv.slice(2);
let urls = 0;
for (const name of readdirSync(dir)
  .filter((n) => /^sitemap-\d+\.xml$/.test(n))
  .sort()) {
  await pipeline(
    createReadStream(join(dir, name)),
    new XMLToSitemapItemStream({ level: ErrorLevel.THROW }),
    new Writable({
      objectMode: true,
      write(_item, _enc, done) {
        urls++;
        done();
      },
    }),
  );
}
console.log(JSON.stringify({ urls }));
