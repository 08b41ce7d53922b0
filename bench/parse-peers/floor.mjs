// bench/parse.mjs contender: the floor. What any sitemap-to-JSON-lines program must do at the
// least, with no checks at all: read the file (gunzip a .gz), decode UTF-8, find the tags, take
// the text of loc, lastmod, changefreq, priority and image:loc, and write one JSON line per <url>
// by plain string concatenation (no entity decoding, no URL, date or escaping work; the bench's
// file needs none). Its time is what a parser could reach if checking cost nothing.
// Usage: node floor.mjs file PATH
import { createReadStream, createWriteStream } from 'node:fs';
import { createGunzip } from 'node:zlib';

const [, target] = process.argv.slice(2);
const out = createWriteStream('/dev/null');
const decoder = new TextDecoder();
let rest = '';
let buf = '';
let urls = 0;
let loc = '';
let lastmod = '';
let changefreq = '';
let priority = '';
let images = '';

function emit() {
  urls++;
  buf += `{"loc":"${loc}"${lastmod === '' ? '' : `,"lastmod":"${lastmod}"`}${changefreq === '' ? '' : `,"changefreq":"${changefreq}"`}${priority === '' ? '' : `,"priority":${priority}`}${images === '' ? '' : `,"images":[${images}]`},"sitemap":"${target}"}\n`;
  loc = lastmod = changefreq = priority = images = '';
}

/** Scans whole tags of `text`; returns what is left after the last complete one. */
function scan(text) {
  let pos = 0;
  for (;;) {
    const lt = text.indexOf('<', pos);
    if (lt === -1) return '';
    const gt = text.indexOf('>', lt + 1);
    if (gt === -1) return text.slice(lt);
    const close = text.charCodeAt(lt + 1) === 47;
    const name = text.slice(close ? lt + 2 : lt + 1, gt);
    pos = gt + 1;
    if (close) {
      if (name === 'url') emit();
      continue;
    }
    if (
      name === 'loc' ||
      name === 'lastmod' ||
      name === 'changefreq' ||
      name === 'priority' ||
      name === 'image:loc'
    ) {
      const end = text.indexOf('<', pos);
      if (end === -1) return text.slice(lt);
      const value = text.slice(pos, end);
      if (name === 'loc') loc = value;
      else if (name === 'lastmod') lastmod = value;
      else if (name === 'changefreq') changefreq = value;
      else if (name === 'priority') priority = value;
      else images += `${images === '' ? '' : ','}{"loc":"${value}"}`;
      pos = end;
    }
  }
}

let input = createReadStream(target, { highWaterMark: 1 << 16 });
if (target.endsWith('.gz')) input = input.pipe(createGunzip());
for await (const chunk of input) {
  rest = scan(rest + decoder.decode(chunk, { stream: true }));
  if (buf.length >= 65_536) {
    if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
    buf = '';
  }
}
scan(rest + decoder.decode());
out.end(buf);
await new Promise((r) => out.on('close', r));
process.stdout.write(`${JSON.stringify({ urls })}\n`);
