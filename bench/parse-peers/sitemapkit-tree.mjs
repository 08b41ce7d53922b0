// bench/parse-tree.mjs contender: sitemapkit's tree reader, index URL → JSON lines (to /dev/null),
// as `sitemapkit parse URL --format jsonl` writes them. Usage: node sitemapkit-tree.mjs URL THREADS
// [CONCURRENCY] (SK_DIST=/path/to/dist for another build). Prints the URLs read and the main thread's CPU seconds (Linux /proc), apart from
// the process's: the workers' share is the difference.
import { createWriteStream, readFileSync } from 'node:fs';

// SK_DIST: another build's dist/ (an absolute path), to run the same reading with older code.
const { parseSitemapTree } = await import(
  process.env.SK_DIST === undefined ? '../../dist/parser/index.js' : `${process.env.SK_DIST}/parser/index.js`
);

const [url, threads, concurrency = '4'] = process.argv.slice(2);
const out = createWriteStream('/dev/null');
let urls = 0;
let buf = '';
const result = parseSitemapTree(url, { threads: Number(threads), concurrency: Number(concurrency) });
for await (const item of result) {
  urls++;
  buf += `${JSON.stringify(item)}\n`;
  if (buf.length >= 65_536) {
    if (!out.write(buf)) await new Promise((r) => out.once('drain', r));
    buf = '';
  }
}
out.end(buf);
await new Promise((r) => out.on('close', r));
let mainCpu;
try {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  mainCpu = (Number(stat[11]) + Number(stat[12])) / 100;
} catch {
  // Not Linux: the main thread's share is not printed.
}
process.stdout.write(`${JSON.stringify({ urls, errors: result.errorCount, mainCpu })}\n`);
