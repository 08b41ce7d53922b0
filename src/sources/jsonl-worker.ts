/**
 * The JSONL reader's worker (started by `jsonl-thread.ts`): reads the file, parses each line and
 * runs the writer's check stage on it (`writer/checked.ts`: normalisation, the duplicate set),
 * and sends the main thread one buffer per batch (transferred: no copy), at most {@link AHEAD}
 * batches ahead of it; the main thread sends each buffer back once it has read it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { type NormalizeResult, normalizeEntry } from '../core/normalize.js';
import { BATCH_BYTES, CheckedWriter, checkUnreadable, writeChecked } from '../writer/checked.js';
import { Dedupe } from '../writer/dedupe.js';
import { UnreadableRecord } from '../writer/intake.js';
import { jsonlRecord } from './jsonl-record.js';
import { errorData, type FromJsonlWorker, type JsonlTask, MORE } from './jsonl-wire.js';
import { readLineBatches } from './lines.js';
import type { SourceRecord } from './record.js';

/** Batches sent and not yet taken, at most: memory stays bounded when the writer waits for the disk. */
const AHEAD = 4;
/**
 * Bytes of checked records after which a batch is sent: half a batch buffer, so that a batch
 * nearly always fits in a reused buffer (only a record larger than the rest needs a larger one).
 */
const SEND_AT = BATCH_BYTES / 2;
/** Lines checked together (see run). */
const GROUP = 128;

const port = parentPort!;
const task = workerData as JsonlTask;
let credit = AHEAD;
let wake: (() => void) | undefined;
const out = new CheckedWriter();
port.on('message', (m: unknown) => {
  if (m instanceof ArrayBuffer) out.reuse(m);
  else if (m !== MORE) return;
  credit++;
  const w = wake;
  wake = undefined;
  w?.();
});
const send = (m: FromJsonlWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

async function sendBatch(): Promise<void> {
  while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
  credit--;
  const batch = out.take();
  send(batch, [batch.buffer]);
}

async function run(): Promise<void> {
  // Room for the file's URLs made up front (a JSONL line of loc, lastmod, changefreq and
  // priority is about a hundred bytes), where growing the set's tables as they fill costs a fifth
  // of its time. A file that cannot be looked at fails below, as the reader words it.
  const size = await stat(task.file).then(
    (s) => s.size,
    () => 0,
  );
  const dedupe = task.request.dedupe ? new Dedupe(size / 100) : undefined;
  const request = task.request;
  const input = createReadStream(task.file);
  // A group of lines at a time: each parsed and normalised, then their URLs looked up in the
  // duplicate set together (the set's memory is waited for once a group rather than once a URL),
  // then each record written in order, as checkRecord writes it. A small group: its records are
  // alive until it is written, and what outlives the young generation costs memory.
  const records: Array<SourceRecord | UnreadableRecord | undefined> = new Array(GROUP).fill(undefined);
  const results: Array<NormalizeResult | undefined> = new Array(GROUP).fill(undefined);
  const locs: Array<string | undefined> = new Array(GROUP).fill(undefined);
  for await (const [lines, first] of readLineBatches(input, { encoding: task.encoding, where: task.file })) {
    for (let start = 0; start < lines.length; start += GROUP) {
      const n = Math.min(GROUP, lines.length - start);
      for (let g = 0; g < n; g++) {
        const record = jsonlRecord(lines[start + g]!);
        const r =
          record === undefined || record instanceof UnreadableRecord
            ? undefined
            : normalizeEntry(record, request);
        records[g] = record;
        results[g] = r;
        locs[g] = r?.ok === true ? r.entry.loc : undefined;
      }
      dedupe?.prepare(locs, n);
      let k = 0;
      for (let g = 0; g < n; g++) {
        const record = records[g];
        const r = results[g];
        const line = first + start + g;
        records[g] = results[g] = locs[g] = undefined;
        if (record === undefined) continue;
        if (r === undefined) checkUnreadable((record as UnreadableRecord).message, line, out);
        else {
          const duplicate = r.ok && dedupe !== undefined ? dedupe.addAt(k++, r.entry.loc) : undefined;
          writeChecked(record, r, duplicate, line, out);
        }
        if (out.used >= SEND_AT) await sendBatch();
      }
    }
  }
  if (out.used > 0) await sendBatch();
  const tables = dedupe?.tables();
  // Each buffer once: the tables that have not grown are views of one buffer (core/hash.ts).
  const buffers = tables === undefined ? [] : [...new Set(tables.t.map((t) => t.buffer as ArrayBuffer))];
  send({ done: true, tables }, buffers);
}

run().catch((e: unknown) => send({ error: errorData(e) }));
