/**
 * The worker thread that owns an SQLite store's connection (sqlite-thread.ts is the main thread's
 * side). It runs the store's SQLite backend unchanged (sqlite.ts): each call of the main thread is
 * a backend method by name, answered in the order the calls came. A transaction is held open
 * between the main thread's `begin` and its `commit` or `rollback` through the backend's own
 * `transaction()` and `bulk()`, so that their rules (nesting, the first write under a rollback
 * journal, the indexes built after a bulk load) stay in one place.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SitemapkitError } from '../core/errors.js';
import type { LayoutRow } from './backend.js';
import { openSqliteBackend, type SqliteBackend } from './sqlite.js';
import {
  type Call,
  errorData,
  type PackedRows,
  type Reply,
  unpackRows,
  type WorkerInput,
} from './sqlite-wire.js';

const port = parentPort!;
const input = workerData as WorkerInput;
const stepFlag = input.steps === undefined ? undefined : new Int32Array(input.steps);

function post(reply: Reply): void {
  port.postMessage(reply);
}

/** A step of the worker's own: with fault injection on, it waits there until the main thread has run its onStep. */
function step(name: string): void {
  if (stepFlag === undefined) return;
  Atomics.store(stepFlag, 0, 0);
  post({ step: name });
  Atomics.wait(stepFlag, 0, 0);
  // 2: the main thread's onStep threw; it rethrows its own error when this call's failure comes back.
  if (Atomics.load(stepFlag, 0) === 2)
    throw Object.assign(new Error(`fault injected at ${name}`), { step: true });
}

/** An open transaction or bulk load: its body waits on `end`. */
interface Held {
  end: { resolve: () => void; reject: (e: unknown) => void };
  done: Promise<unknown>;
}

let backend: SqliteBackend | undefined;
const held: Held[] = [];
/** A failed insert that was not waited for: every later call fails with it, until the rollback. */
let poisoned: unknown;
/** A bulk load that ended, its indexes not built yet. */
let deferred: Held | undefined;
/**
 * What runs as well without the indexes of a bulk load (meta, files, the published record, table
 * scans): a first build's calls before it writes its files, answered before the indexes are built.
 */
const WITHOUT_INDEXES: ReadonlySet<string> = new Set([
  'getMeta',
  'setMeta',
  'files',
  'saveFiles',
  'published',
  'setPublished',
  'purge',
  'countRemovedSince',
  'inputLastmods',
  'newestUrls',
  'layouts.get',
  'layouts.save',
  'reads.files',
]);
/** The id the next new row gets during a bulk load into an empty table (checked, see `insert`). */
let nextId = 0;

/** Runs `open(body)` with a body that waits for the main thread; resolves once the body started. */
async function hold(open: (body: () => Promise<void>) => Promise<unknown>, before: string): Promise<void> {
  let end!: Held['end'];
  const waiting = new Promise<void>((resolve, reject) => {
    end = { resolve, reject };
  });
  let started!: (e?: unknown) => void;
  const begun = new Promise<unknown>((resolve) => {
    started = resolve;
  });
  const done = open(async () => {
    started();
    await waiting;
    step(before);
  });
  done.catch(started);
  const failure = await begun;
  if (failure !== undefined) throw failure;
  held.push({ end, done });
}

/** Ends a bulk load whose indexes are not built yet: builds them, or (a rollback) lets them go. */
async function settle(ok: boolean): Promise<void> {
  const h = deferred;
  if (h === undefined) return;
  deferred = undefined;
  held.push(h);
  await release(ok);
}

async function release(ok: boolean): Promise<void> {
  const h = held.pop();
  if (h === undefined) throw new SitemapkitError('ERR_STATE', 'the site store has no transaction open');
  if (ok) h.end.resolve();
  else h.end.reject(new Error('rolled back'));
  try {
    await h.done;
  } catch (error) {
    if (ok) throw error;
  }
}

async function run(call: Call): Promise<unknown> {
  const b = backend!;
  const a = call.args;
  switch (call.op) {
    case 'begin':
      return hold((body) => b.transaction(body), 'worker:committing');
    case 'commit':
      return release(true);
    case 'rollback':
      poisoned = undefined;
      // The whole transaction goes, a bulk load in it too (nothing in between is kept on its own).
      // Nothing open: it already ended (a COMMIT that failed rolls back in sqlite.ts).
      while (held.length > 0) await release(false);
      return undefined;
    case 'bulk-begin': {
      await hold(async (body) => {
        await b.bulk(body);
        step('worker:indexed');
      }, 'worker:indexing');
      // Rows inserted into an empty table get the ids 1, 2, 3…: the main thread need not wait for them.
      nextId = (await b.scan(0, 1)).length === 0 ? 1 : 0;
      return nextId;
    }
    case 'bulk-end': {
      // The indexes are built later (deferred), when the main thread says it is busy for a while
      // (`idle`, as a first build writes its files), or first thing for a call that needs them.
      nextId = 0;
      deferred = held.pop();
      return undefined;
    }
    case 'idle':
      return undefined;
    case 'insert': {
      const rows = unpackRows(a[0] as PackedRows);
      const ids = await b.insert(rows);
      if (a[1] === true) {
        // Sent without waiting: the main thread gave these rows the ids that follow the last.
        if (ids.length > 0 && (ids[0] !== nextId || ids.at(-1) !== nextId + ids.length - 1))
          throw new SitemapkitError('ERR_STATE', 'the site store gave new rows other ids than expected', {
            hint: 'run the import again (the store is as it was)',
          });
        nextId += ids.length;
        step('worker:inserted');
        return ids.length;
      }
      return ids;
    }
    case 'live-ids': {
      // What unseen() needs, without sending a function: every live id (the main thread filters).
      const ids: number[] = [];
      await b.unseen((id) => {
        ids.push(id);
        return true;
      });
      return Float64Array.from(ids);
    }
    case 'layouts.save': {
      // A blob binds as a Buffer; a Uint8Array arrives from the main thread.
      const rows = (a[0] as LayoutRow[]).map((r) => ({
        ...r,
        data: r.data === null ? null : Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
      }));
      return b.layouts.save(rows, a[1] as string[]);
    }
    case 'close':
      await b.close();
      return undefined;
    default: {
      const [scope, name] = call.op.includes('.') ? call.op.split('.') : [undefined, call.op];
      const target = (scope === 'layouts' ? b.layouts : scope === 'reads' ? reads : b) as unknown as Record<
        string,
        (...args: unknown[]) => unknown
      >;
      const fn = target[name!];
      if (typeof fn !== 'function') throw new SitemapkitError('ERR_STATE', `unknown store call ${call.op}`);
      return fn.apply(target, a);
    }
  }
}

let reads: ReturnType<SqliteBackend['reads']>;
let queue: Promise<void> = Promise.resolve();

port.on('message', (call: Call) => {
  // One call at a time, in order: the backend's calls are synchronous underneath, but a
  // transaction's body awaits, and nothing may run between its steps out of order.
  queue = queue.then(async () => {
    try {
      if (poisoned !== undefined && call.op !== 'rollback' && call.op !== 'close') throw poisoned;
      if (deferred !== undefined && !WITHOUT_INDEXES.has(call.op))
        await settle(call.op !== 'rollback' && call.op !== 'close');
      const value = await run(call);
      post({ id: call.id, ok: true, value });
    } catch (error) {
      if (call.nowait) poisoned = error;
      post({
        id: call.id,
        ok: false,
        error: { ...errorData(error), step: (error as { step?: boolean }).step === true },
      });
    }
  });
});

try {
  backend = await openSqliteBackend(input.path);
  reads = backend.reads();
  post({ id: 0, ok: true, value: { generation: typeof reads.generation === 'function' } });
} catch (error) {
  post({ id: 0, ok: false, error: errorData(error) });
}
