// collectGarbage (src/crawler/heap.ts), made when a large crawl's last page is done: it really
// collects this thread's heap (an object only a WeakRef holds is gone after it), every time.
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
});
