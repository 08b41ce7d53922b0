// One contender of bench/writer-memory.mjs: N entries made in memory, each with its own lastmod
// (`unique`, one a second, as database rows have) or one of 28 dates (`few`), into writeSitemaps
// (`write`) or only made (`floor`). Prints the peak V8 heap (heapTotal) it sampled as `HEAP=MiB` on stderr.
// Usage: node writer-memory.mjs N unique|few write|floor OUT [no-dedupe]
import { writeSitemaps } from '../../dist/index.js';

const [n, dates, mode, out, dedupe] = process.argv.slice(2);
const N = Number(n);
const T0 = Date.UTC(2024, 2, 1);
const FREQS = ['daily', 'weekly', 'monthly'];
// Sampled from the loop that makes the entries (every 4,096), which runs for the floor too.
let heap = 0;

function* entries() {
  for (let i = 0; i < N; i++) {
    if ((i & 4095) === 0) heap = Math.max(heap, process.memoryUsage().heapTotal);
    const ms = dates === 'unique' ? T0 + i * 1000 : T0 + (i % 28) * 86_400_000;
    yield {
      loc: `https://example.com/products/item-${i}?ref=list`,
      lastmod: new Date(ms).toISOString().replace('.000Z', 'Z'),
      changefreq: FREQS[i % 3],
      priority: (i % 10) / 10,
    };
  }
}

if (mode === 'floor') {
  let bytes = 0;
  for (const e of entries()) bytes += e.loc.length + e.lastmod.length;
  if (bytes === 0) throw new Error('no entries');
} else {
  await writeSitemaps(entries(), {
    outDir: out,
    baseUrl: 'https://example.com/',
    dedupe: dedupe !== 'no-dedupe',
  });
}
process.stderr.write(`HEAP=${(heap / 1048576).toFixed(0)}\n`);
