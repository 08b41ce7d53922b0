/**
 * The crawl report written by a worker thread (`report-worker.ts`) while this thread writes the
 * sitemaps and the HTML site map: the two read the state apart (the report every URL with its
 * inbound links, the sitemaps the listed pages) and write apart, so on two cores the output after
 * the last page takes about as long as the longer of the two instead of their sum. The state must
 * be shared first (`CrawlState.share`): the worker opens a read-only connection of its own, by the
 * state's path, and checks that it opened the crawl's file (its identity, from the crawl's guard,
 * state-guard.ts): a state replaced after the crawl last looked would otherwise give the report.
 */
import { startWorker } from '../core/worker-argv.js';
import { type ErrorData, errorFrom } from '../sources/jsonl-wire.js';
import { keepHeapLimits } from './heap.js';
import type { CrawlReportFiles, CrawlReportInput } from './report.js';
import type { FileIdentity } from './state-guard.js';

// Under the test runner this module is TypeScript; the worker runs the build's JavaScript.
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/crawler/report-worker.js', import.meta.url)
  : new URL('./report-worker.js', import.meta.url);

/** What the worker is given. */
export interface ReportTask {
  /** The shared state's file. */
  state: string;
  /** The file its crawl opened (device and inode), which the thread must find at `state`. */
  identity: FileIdentity | undefined;
  input: CrawlReportInput;
  /**
   * Tests' fault-injection point: once the thread opened the state and found it the crawl's, it
   * sets `[0]` to 1 and waits until it is no longer 1 before it reads.
   */
  hold: Int32Array | undefined;
}

/** What the worker answers, once. */
export type FromReportWorker = { files: CrawlReportFiles } | { error: ErrorData };

/**
 * Writes the report of the crawl whose state is at `state` (shared by its crawl) in a worker
 * thread. Rejects as `writeCrawlReport` would (its error rebuilt on this side), and with the
 * guard's `ERR_STATE` sentence when the file at `state` is not the file of `identity`.
 */
export function writeCrawlReportInThread(
  state: string,
  input: CrawlReportInput,
  identity?: FileIdentity,
  hold?: Int32Array,
): Promise<CrawlReportFiles> {
  return new Promise((resolve, reject) => {
    const task: ReportTask = { state, identity, input, hold };
    // The report's garbage is short-lived (each URL's line): a small young generation keeps the
    // thread's heap, and the process's peak RSS, small (the main thread's is the crawl's).
    const worker = startWorker(WORKER, {
      workerData: task,
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    // Its isolate, once made, has set V8's young generation growth back (heap.ts).
    worker.once('online', keepHeapLimits);
    let answer: FromReportWorker | undefined;
    worker.on('message', (m: FromReportWorker) => {
      answer = m;
    });
    worker.on('error', (e) => {
      answer ??= { error: { name: 'Error', message: `the report's thread failed (${e.message})` } };
    });
    // Settled when the thread is gone: its connection to the state is closed by then, so the
    // crawl can take its exclusive lock back.
    worker.on('exit', (code) => {
      if (answer === undefined) reject(new Error(`the report's thread stopped (exit code ${code})`));
      else if ('error' in answer) reject(errorFrom(answer.error));
      else resolve(answer.files);
    });
  });
}
