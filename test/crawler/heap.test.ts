// collectGarbage (src/crawler/heap.ts), made when a large crawl's last page is done: it really
// collects this thread's heap (an object only a WeakRef holds is gone after it), every time, and
// gives back the old space the dead objects leave, not only the objects (one collection leaves
// the pages a few survivors are spread over in place).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/crawler/heap.js';

// A fresh process's heap (this one's young generation has long reached its size), with the build's module.
const HEAP = fileURLToPath(new URL('../../dist/crawler/heap.js', import.meta.url));

/**
 * The young generation's size in MiB after an allocation burst of objects that die young, in a new
 * process: with `limitHeapGrowth` held (`limit`; `worker`: a worker thread started meanwhile, and
 * `keepHeapLimits` called once it is online, as the report's thread does), or not, and after it is
 * released (`after`).
 */
function youngAfterBurst(mode: 'limit' | 'none' | 'worker'): { during: number; after: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { keepHeapLimits, limitHeapGrowth } from ${JSON.stringify(HEAP)};
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20;
    const ring = new Array(3000);
    const burst = async () => {
      for (let i = 0; i < 4e6; i++) {
        ring[i % 3000] = { a: i, b: [i] };
        // A turn of the event loop now and then, as a crawl's loop has (the observer's).
        if (i % 20000 === 0) await new Promise((r) => setImmediate(r));
      }
    };
    const release = ${JSON.stringify(mode)} === 'none' ? () => {} : limitHeapGrowth();
    await burst();
    if (${JSON.stringify(mode)} === 'worker') {
      // A worker thread started as the report's is: its isolate sets V8's growth factor back.
      const w = new Worker('setTimeout(() => {}, 100)', { eval: true });
      await new Promise((r) => w.once('online', () => r(keepHeapLimits())));
      await burst();
    }
    const during = young();
    release();
    await burst(); await burst();
    console.log(JSON.stringify({ during, after: young() }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as { during: number; after: number };
}

/** A WeakRef to an object nothing else holds (made in a job of its own: V8 keeps a new WeakRef's target until its job ends). */
async function dropped(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ payload: new Array(1000).fill('x') });
  await new Promise((resolve) => setImmediate(resolve));
  return ref;
}

describe('collectGarbage', () => {
  it('collects what nothing holds, each time it is called', async () => {
    for (let i = 0; i < 3; i++) {
      const ref = await dropped();
      const kept = { still: 'here' };
      const held = new WeakRef(kept);
      collectGarbage();
      expect(ref.deref()).toBeUndefined();
      expect(held.deref()).toBe(kept);
    }
  });

  it('gives back the old space a few survivors were spread over', async () => {
    // Objects that live long enough to reach the old space (they outlive the young generation's
    // collections), then one in thirty kept: every page of them keeps a survivor.
    let all: Array<{ n: number; s: string }> | undefined = [];
    for (let i = 0; i < 1_500_000; i++) all.push({ n: i, s: `x${i}` });
    collectGarbage();
    const kept = all.filter((_, i) => i % 30 === 0);
    all = undefined;
    collectGarbage();
    const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;
    // About 50,000 objects (a few MiB) live; 1.5 million (more than 60 MiB) were there.
    const slack = old.space_size - old.space_used_size;
    expect(kept).toHaveLength(50_000);
    expect(slack).toBeLessThan(16 * 2 ** 20);
  });

  it('holds the young generation at 16 MiB while a crawl holds the limit, V8’s 32 MiB before and after', () => {
    expect(youngAfterBurst('none')).toEqual({ during: 32, after: 32 });
    expect(youngAfterBurst('limit')).toEqual({ during: 16, after: 32 });
    expect(youngAfterBurst('worker')).toEqual({ during: 16, after: 32 });
  });
});
