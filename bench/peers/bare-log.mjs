// The floor of bench/logs.mjs: reads a log (gunzip when its first bytes say gzip), splits it into
// lines and takes each request's path, with no checks, no filters, no dedupe and no output.
// Usage: node bench/peers/bare-log.mjs FILE
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';

const file = process.argv[2];
const fh = await open(file);
const head = Buffer.alloc(2);
await fh.read(head, 0, 2, 0);
await fh.close();
let input = createReadStream(file, { highWaterMark: 1 << 16 });
if (head[0] === 0x1f && head[1] === 0x8b) input = input.pipe(createGunzip());
input.setEncoding('utf8');
let carry = '';
let lines = 0;
let pathChars = 0;
for await (const chunk of input) {
  const parts = (carry + chunk).split('\n');
  carry = parts.pop();
  for (const line of parts) {
    lines++;
    const q = line.indexOf('"');
    const sp = line.indexOf(' ', q);
    pathChars += line.indexOf(' ', sp + 1) - sp;
  }
}
if (carry !== '') lines++;
process.stdout.write(`${lines} ${pathChars}\n`);
