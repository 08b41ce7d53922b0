/**
 * The crawl report's worker (started by `report-thread.ts`): opens the shared state read-only,
 * checks that it is the crawl's file, writes the report as `writeCrawlReport` does, closes the
 * state and answers once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorData } from '../sources/jsonl-wire.js';
import { writeCrawlReport } from './report.js';
import type { FromReportWorker, ReportTask } from './report-thread.js';
import { CrawlState } from './state.js';
import { lookAt, stateLostError } from './state-guard.js';

const task = workerData as ReportTask;

/**
 * Throws the crawl's sentence for a lost state when the file at the path is not the crawl's.
 * better-sqlite3 gives no descriptor to `fstat`, so the path is looked at instead: right after the
 * open, what was opened is what is at the path (the crawl holds its file open, so its inode is not
 * reused: another file there has another identity); and again after reading, since SQLite opens
 * the journal files by name as it reads, those of whoever replaced the file meanwhile.
 */
function expectCrawlFile(): void {
  if (task.identity === undefined) return;
  const lost = lookAt(task.state, task.identity);
  if (lost !== undefined) throw stateLostError(task.state, lost, false);
}

async function run(): Promise<FromReportWorker> {
  let state: CrawlState | undefined;
  try {
    state = await CrawlState.reader(task.state);
    expectCrawlFile();
    if (task.hold !== undefined) {
      Atomics.store(task.hold, 0, 1);
      Atomics.notify(task.hold, 0);
      Atomics.wait(task.hold, 0, 1);
    }
    const files = await writeCrawlReport(state, task.input);
    expectCrawlFile();
    return { files };
  } catch (e) {
    return { error: errorData(e) };
  } finally {
    state?.close();
  }
}

parentPort!.postMessage(await run());
