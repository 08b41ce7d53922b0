/**
 * A full garbage collection of this thread's heap, made once a large crawl's last page is done and
 * before its output allocates. The crawl loop leaves a heap sized by its garbage (V8 grows the heap
 * as a multiple of what survives, and gives it back only after a major collection): the process's
 * peak RSS was reached in the first seconds of the output, the loop's dead heap still counted
 * beside the output's first allocations and the report's thread. One collection here (about a
 * tenth of a second at a million pages) lets the output start from the live heap alone.
 *
 * `--expose-gc` set at run time gives `gc` to the contexts made after it (the running one keeps
 * none): the function of a new context collects the same isolate's heap.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** Collects this thread's garbage now (a full, major collection). */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
