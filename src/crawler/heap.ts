/**
 * Full garbage collections of this thread's heap, made once a large crawl's last page is done and
 * before its output allocates. The crawl loop leaves a heap sized by its garbage (V8 grows the heap
 * as a multiple of what survives, and gives it back only after a major collection): the process's
 * peak RSS was reached in the first seconds of the output, the loop's dead heap still counted
 * beside the output's first allocations and the report's thread.
 *
 * One collection frees the dead objects but not the memory: a page of the old space goes back to
 * the system only once nothing lives on it, and the loop's survivors are spread over all of them
 * (at 100,000 pages, 83 MiB of old space held 17 MiB of live objects after it). The next
 * collection moves the live objects off the sparsest pages (it picks them from what the previous
 * one found) and releases those; a third one the rest. So it collects again while that shrinks
 * the heap, three times at most (about a tenth of a second each at a million pages).
 *
 * `--expose-gc` set at run time gives `gc` to the contexts made after it (the running one keeps
 * none): the function of a new context collects the same isolate's heap.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** A collection that gives back less than this ends the series. */
const SHRINK = 1 << 20;

/** Collects this thread's garbage now (full, major collections) and gives its emptied pages back. */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  for (let i = 0; i < 2; i++) {
    const before = getHeapStatistics().total_heap_size;
    gc();
    if (getHeapStatistics().total_heap_size > before - SHRINK) break;
  }
}
