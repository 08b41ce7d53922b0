// bench/parse.mjs contender: the npm `sitemap` package's XMLToSitemapItemStream, as its README
// shows, piped into ObjectStreamToJSON (JSON lines) and /dev/null. It has no tree walker, so for
// the tree this script fetches the index (parseSitemapIndex) and then each child in turn.
// Usage: node sitemap.mjs file PATH | tree URL
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ObjectStreamToJSON, parseSitemapIndex, XMLToSitemapItemStream } from 'sitemap';

const [mode, target] = process.argv.slice(2);
let urls = 0;
const count = () =>
  new Transform({
    objectMode: true,
    transform(item, _e, cb) {
      urls++;
      cb(null, item);
    },
  });
const toJsonLines = async (source, gzip) => {
  const stages = [
    source,
    ...(gzip ? [createGunzip()] : []),
    new XMLToSitemapItemStream({ logger: false }),
    count(),
  ];
  await pipeline(...stages, new ObjectStreamToJSON({ lineSeparated: true }), createWriteStream('/dev/null'));
};

if (mode === 'tree') {
  const index = await parseSitemapIndex(Readable.fromWeb((await fetch(target)).body));
  for (const child of index) {
    const res = await fetch(child.url);
    await toJsonLines(Readable.fromWeb(res.body), child.url.endsWith('.gz'));
  }
} else {
  await toJsonLines(createReadStream(target), target.endsWith('.gz'));
}
process.stdout.write(`${JSON.stringify({ urls })}\n`);
