/**
 * The main thread's side of the JSONL reader's worker: a {@link CheckedStream} whose batches the
 * worker (`jsonl-worker.ts`) reads, parses and checks on the second core while this thread
 * serialises, budgets and writes what came before. Each batch's buffer goes back to the worker
 * once read, to be filled again. Started when iterated; stopped when the
 * iteration ends, however it ends.
 */
import { type HashedSetTables, HashedStringSet } from '../core/hash.js';
import { startWorker } from '../core/worker-argv.js';
import type { CheckedBatch, CheckedStream, CheckRequest } from '../writer/checked.js';
import { errorFrom, type FromJsonlWorker, type JsonlTask, MORE } from './jsonl-wire.js';

// Under the test runner this module is TypeScript; the worker runs the build's JavaScript.
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/sources/jsonl-worker.js', import.meta.url)
  : new URL('./jsonl-worker.js', import.meta.url);

export function checkInThread(
  file: string,
  encoding: string | undefined,
  request: CheckRequest,
): CheckedStream {
  let tables: HashedSetTables | undefined;
  return {
    seen: () => (tables === undefined ? undefined : HashedStringSet.fromTables(tables)),
    async *[Symbol.asyncIterator](): AsyncGenerator<CheckedBatch> {
      const task: JsonlTask = { file, encoding, request };
      // The worker's garbage is short-lived (each batch's parsed lines): a small young
      // generation keeps its heap, and the process's peak RSS, small.
      const worker = startWorker(WORKER, {
        workerData: task,
        resourceLimits: { maxYoungGenerationSizeMb: 8 },
      });
      const queue: FromJsonlWorker[] = [];
      let failure: Error | undefined;
      let wake: (() => void) | undefined;
      const notify = (): void => {
        const w = wake;
        wake = undefined;
        w?.();
      };
      worker.on('message', (m: FromJsonlWorker) => {
        queue.push(m);
        notify();
      });
      worker.on('error', (e) => {
        failure ??= new Error(`the JSONL reader's thread failed (${e.message})`);
        notify();
      });
      worker.on('exit', (code) => {
        failure ??= new Error(`the JSONL reader's thread stopped (exit code ${code})`);
        notify();
      });
      // The batch last handed on: read by the time the next is asked for, then sent back.
      let read: ArrayBuffer | undefined;
      try {
        for (;;) {
          const m = queue.shift();
          if (m === undefined) {
            if (failure !== undefined) throw failure;
            await new Promise<void>((resolve) => (wake = resolve));
            continue;
          }
          if ('error' in m) throw errorFrom(m.error);
          if ('done' in m) {
            tables = m.tables;
            return;
          }
          if (read === undefined) worker.postMessage(MORE);
          else worker.postMessage(read, [read]);
          read = undefined;
          yield { file, bytes: new Uint8Array(m.buffer, 0, m.length) };
          read = m.buffer;
        }
      } finally {
        // Not awaited: a worker being terminated does not keep the event loop alive.
        void worker.terminate().catch(() => undefined);
      }
    },
  };
}
