// One contender of bench/store-extras.mjs, in its own process (so its peak RSS is its own).
//   import N STORE                  a new store: N URLs (every other one with an input lastmod)
//   build STORE OUT K keep|warn|feed   one URL added (item K), then a build from the store with
//                                   lastmodPolicy keep (what a store build did before issue 12's
//                                   extras met it), warn (the default: the lastmods judged), or
//                                   warn with an Atom feed of the newest 100
import { openStore } from '../../dist/store/index.js';

const [mode, a, b, c, how] = process.argv.slice(2);
const BASE = 'https://www.example.com/';

if (mode === 'import') {
  const n = Number(a);
  const s = await openStore(b, { baseUrl: BASE });
  await s.sync(
    (function* () {
      for (let i = 0; i < n; i++) {
        const e = { loc: `${BASE}products/item-${i}.html` };
        if (i % 2 === 0)
          e.lastmod = `2026-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
        yield e;
      }
    })(),
  );
  await s.close();
} else if (mode === 'build') {
  const s = await openStore(a);
  await s.add([{ loc: `${BASE}new/item-${c}.html` }]);
  const r = await s.build({
    outDir: b,
    lastmodPolicy: how === 'keep' ? 'keep' : 'warn',
    ...(how === 'feed' && { feed: { format: 'atom' } }),
  });
  console.log(
    JSON.stringify({ rewritten: r.files.filter((f) => f.change !== 'kept').length, files: r.files.length }),
  );
  await s.close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
