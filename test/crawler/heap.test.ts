// collectGarbage (src/crawler/heap.ts), made when a large crawl's last page is done: it really
// collects this thread's heap (an object only a WeakRef holds is gone after it), every time, and
// gives back the old space the dead objects leave, not only the objects (one collection leaves
// the pages a few survivors are spread over in place).
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/crawler/heap.js';

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
});
