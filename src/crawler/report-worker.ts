/**
 * The crawl report's worker (started by `report-thread.ts`): opens the shared state read-only,
 * writes the report as `writeCrawlReport` does, closes the state and answers once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorData } from '../sources/jsonl-wire.js';
import { writeCrawlReport } from './report.js';
import type { FromReportWorker, ReportTask } from './report-thread.js';
import { CrawlState } from './state.js';

const task = workerData as ReportTask;

async function run(): Promise<FromReportWorker> {
  let state: CrawlState | undefined;
  try {
    state = await CrawlState.reader(task.state);
    return { files: await writeCrawlReport(state, task.input) };
  } catch (e) {
    return { error: errorData(e) };
  } finally {
    state?.close();
  }
}

parentPort!.postMessage(await run());
