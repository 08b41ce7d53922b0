/**
 * The crawl's heap held close to what lives in it: its growth limited while the crawl runs
 * ({@link limitHeapGrowth}), and its garbage collected and given back once a large crawl's last
 * page is done, before its output allocates ({@link collectGarbage}).
 *
 * The collections at the last page. The crawl loop leaves a heap sized by its garbage (V8 grows the heap
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
 *
 * Every flag here is a flag of the whole process, and a library must leave its caller's process
 * as it found it: `crawl()` holds the heap only when asked (`holdHeap`, which the CLI passes: it
 * owns its process), never touches a flag the process was started with (its command line or
 * `NODE_OPTIONS`: the caller's choice), and sets every flag it touched back to what the process
 * had, `--expose-gc` included. V8 has no way to read a flag back, so a value set at run time
 * (`v8.setFlagsFromString`) is not known here: docs/crawl.md says so.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** What the process was started with, of the flags a crawl sets (undefined: V8's default). */
export interface StartFlags {
  heapGrowingPercent: string | undefined;
  semiSpaceGrowthFactor: string | undefined;
  exposeGc: boolean;
}

/**
 * The process's own values of the flags a crawl sets: from `execArgv` (its command line) and
 * `nodeOptions` (`NODE_OPTIONS`, read first: the command line comes after it; Node lets only
 * `--expose-gc` of them in), the last one given winning, in V8's spellings (`-` or `_`, `--no-` or
 * `--no` before a boolean, `=value` after a number: V8 takes no separate value).
 */
export function startFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env['NODE_OPTIONS'],
): StartFlags {
  const out: StartFlags = {
    heapGrowingPercent: undefined,
    semiSpaceGrowthFactor: undefined,
    exposeGc: false,
  };
  const args = [...(nodeOptions?.split(/\s+/) ?? []), ...execArgv].filter((a) => a !== '');
  for (const arg of args) {
    const m = /^--(no-?)?([\w-]+?)(?:=(.*))?$/.exec(arg);
    if (m === null) continue;
    const name = m[2]!.replace(/_/g, '-');
    if (name === 'expose-gc') out.exposeGc = m[1] === undefined;
    // A number's flag: only with its value (V8 refuses it without one).
    if (m[1] !== undefined || m[3] === undefined) continue;
    if (name === 'heap-growing-percent') out.heapGrowingPercent = m[3];
    if (name === 'semi-space-growth-factor') out.semiSpaceGrowthFactor = m[3];
  }
  return out;
}

let started: StartFlags | undefined;

/** {@link startFlags} of this process, read once. */
function own(): StartFlags {
  started ??= startFlags();
  return started;
}

/** A collection that gives back less than this ends the series. */
const SHRINK = 1 << 20;

/** Collects this thread's garbage now (full, major collections) and gives its emptied pages back. */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    try {
      gc = runInNewContext('gc') as () => void;
    } finally {
      // The function stays; the contexts made from now on (the caller's) get none, as before.
      if (!own().exposeGc) setFlagsFromString('--no-expose-gc');
    }
  }
  gc();
  for (let i = 0; i < 2; i++) {
    const before = getHeapStatistics().total_heap_size;
    gc();
    if (getHeapStatistics().total_heap_size > before - SHRINK) break;
  }
}

/**
 * How much V8 lets the old space grow past what survives its last full collection while a crawl
 * runs, in percent. Left to itself it picks up to 300 % (a limit four times the live heap): the
 * loop's heap is mostly short-lived garbage, so at a million pages 25 to 40 MiB of live objects sat
 * in 100 to 110 MiB of old space, most of the crawl's peak RSS. At 100 % (twice the live heap) a
 * 100,000-page crawl took the same CPU time as without (24.5 s); at 50 %, 12 to 23 % more.
 */
const GROWING_PERCENT = 100;

/**
 * The young generation's size (both semi-spaces) past which a crawl stops it growing. V8 grows it
 * up to 32 MiB (16 MiB semi-spaces) and never gives it back while the process allocates; a crawl's
 * garbage dies within a page, and half of that holds it as well.
 */
const YOUNG_CAP = 16 * 2 ** 20;

let holders = 0;
let watcher: PerformanceObserver | undefined;

/** The young generation's size now (its two semi-spaces). */
function youngSize(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/** Stops the young generation growing once it has reached {@link YOUNG_CAP} (unless the process set its growth). */
function capYoung(): void {
  if (own().semiSpaceGrowthFactor === undefined && youngSize() >= YOUNG_CAP)
    setFlagsFromString('--semi-space-growth-factor=1');
}

/**
 * Holds the heap closer to what lives in it until the returned function is called: the old space
 * (V8's `--heap-growing-percent`, read at each full collection) and the young generation (its
 * `--semi-space-growth-factor`, read each time it grows, set to 1 once it has reached
 * {@link YOUNG_CAP}: the young generation's largest size is fixed when the process starts, so this
 * is the one way to hold it smaller from inside). Both are flags of the whole process: a flag the
 * process was started with is left as it is, and the others are set back to V8's defaults (what
 * the process had) when the last crawl holding them lets go (a crawl does when its output starts:
 * ten seconds of short-lived allocations, at a million pages 1.2 s faster without them).
 *
 * Checked after each collection: an observer hears of it at once, and the young generation grows
 * at most once per collection, the next one megabytes of allocation later. Every collection, not
 * only until the cap is reached: V8 sets the growth factor back to 2 whenever an isolate is made
 * (a worker thread's, the report's), so {@link keepHeapLimits} is called when one has started.
 */
export function limitHeapGrowth(): () => void {
  if (holders++ === 0) {
    if (own().heapGrowingPercent === undefined)
      setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
    capYoung();
    watcher = new PerformanceObserver(capYoung);
    watcher.observe({ entryTypes: ['gc'] });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders > 0) return;
    watcher?.disconnect();
    watcher = undefined;
    if (own().heapGrowingPercent === undefined) setFlagsFromString('--heap-growing-percent=0');
    if (own().semiSpaceGrowthFactor === undefined) setFlagsFromString('--semi-space-growth-factor=2');
  };
}

/** Applies {@link limitHeapGrowth}'s young generation cap again (after a worker thread started: see there). */
export function keepHeapLimits(): void {
  if (holders > 0) capYoung();
}
