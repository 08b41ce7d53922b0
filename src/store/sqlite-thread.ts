/**
 * An SQLite store whose connection lives in a worker thread (sqlite-worker.ts), so that SQLite's
 * work (inserting a first import's rows, building the indexes after it, committing) runs on the
 * second core while the main thread reads, normalises, serialises and writes the files. The main
 * thread holds a backend whose every call is a message. A first import's new rows go without
 * waiting for their ids (an empty table numbers them 1, 2, 3…; the worker checks), packed a few
 * thousand at a time (sqlite-wire.ts), and so do the writes that return nothing, inside a
 * transaction: a failure among them fails every later call and the commit, so nothing is lost
 * unnoticed, and the transaction rolls back as it would in thread.
 *
 * Used where it pays: a new or empty store (its first build) on a machine with a second core, or
 * when asked (`worker: true`); other stores, and `worker: false`, keep the connection in thread
 * (sqlite.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { SitemapkitError } from '../core/errors.js';
import { startWorker } from '../core/worker-argv.js';
import type {
  CompareRow,
  FeedRow,
  FileRow,
  FragmentRow,
  KnownRow,
  LayoutRow,
  LayoutStore,
  LightRow,
  NewUrlRow,
  PendingEntry,
  PendingRow,
  PublishedRow,
  StoreBackend,
  UrlRow,
} from './backend.js';
import type { StoreReads } from './read-types.js';
import { openSqliteBackend } from './sqlite.js';
import {
  type Call,
  errorFrom,
  type PackedRows,
  type Reply,
  RowPacker,
  type WorkerInput,
} from './sqlite-wire.js';

type OnStep = (step: string) => void | Promise<void>;

/** Rows a message carries: large enough that a message costs nothing beside its rows. */
const CHUNK = 4096;
/** Chunks sent and not yet inserted before an insert waits: bounds the memory a slow disk can hold up. */
const AHEAD = 4;

// Under the test runner the sources run as TypeScript, which a worker thread cannot load: the
// worker is then the built one (`npm run build`, which the tests run first).
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/store/sqlite-worker.js', import.meta.url)
  : new URL('./sqlite-worker.js', import.meta.url);

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

class ThreadBackend implements StoreBackend {
  readonly #path: string;
  readonly #worker: Worker;
  readonly #waiting = new Map<number, Waiting>();
  #calls = 0;
  /** Set once the worker is gone: every call fails with it. */
  #gone: SitemapkitError | undefined;
  readonly #onStep: OnStep | undefined;
  readonly #steps: Int32Array | undefined;
  /** What the caller's onStep threw at a step of the worker's (the worker fails the call it was in). */
  #stepError: unknown;
  #depth = 0;
  /** The id the next new row gets while inserts go without waiting (0: they wait). */
  #nextId = 0;
  readonly #packer = new RowPacker(CHUNK);
  #ahead: Array<Promise<unknown>> = [];
  #hasGeneration = false;
  readonly layouts: LayoutStore;

  constructor(path: string, worker: Worker, steps: Int32Array | undefined, onStep: OnStep | undefined) {
    this.#path = path;
    this.#worker = worker;
    this.#steps = steps;
    this.#onStep = onStep;
    this.layouts = {
      pendingEntries: (since: number, limit: number) =>
        this.#call('layouts.pendingEntries', since, limit) as Promise<PendingEntry[]>,
      get: (path: string) => this.#call('layouts.get', path) as Promise<LayoutRow | undefined>,
      save: (rows: readonly LayoutRow[], keep: readonly string[]) => this.#write('layouts.save', rows, keep),
    };
  }

  /** Waits for the worker to open the store; throws the error the in-thread open would. */
  async start(): Promise<void> {
    this.#worker.on('message', (m: Reply) => this.#reply(m));
    this.#worker.on('error', (e) => this.#lost(e.message));
    this.#worker.on('exit', (code) => this.#lost(`it exited with code ${code}`));
    const opened = new Promise<unknown>((resolve, reject) => this.#waiting.set(0, { resolve, reject }));
    this.#worker.ref();
    const { generation } = (await opened) as { generation: boolean };
    this.#hasGeneration = generation;
  }

  #reply(m: Reply): void {
    if ('step' in m) {
      void this.#runStep(m.step);
      return;
    }
    const w = this.#waiting.get(m.id);
    if (w === undefined) return;
    this.#waiting.delete(m.id);
    if (this.#waiting.size === 0) this.#worker.unref();
    if (m.ok) w.resolve(m.value);
    else w.reject(m.error.step === true ? this.#stepError : errorFrom(m.error));
  }

  async #runStep(name: string): Promise<void> {
    const flag = this.#steps!;
    try {
      await this.#onStep?.(name);
      Atomics.store(flag, 0, 1);
    } catch (error) {
      this.#stepError = error;
      Atomics.store(flag, 0, 2);
    }
    Atomics.notify(flag, 0);
  }

  #lost(why: string): void {
    if (this.#gone !== undefined) return;
    this.#gone = new SitemapkitError('ERR_STATE', `the site store's worker thread stopped: ${why}`, {
      where: this.#path,
      hint: 'run the command again: a transaction the thread had not committed is rolled back',
    });
    for (const w of this.#waiting.values()) w.reject(this.#gone);
    this.#waiting.clear();
  }

  #send(op: string, args: unknown[], nowait = false, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.#gone !== undefined) return Promise.reject(this.#gone);
    const id = ++this.#calls;
    const out = new Promise<unknown>((resolve, reject) => this.#waiting.set(id, { resolve, reject }));
    const call: Call = { id, op, args, nowait };
    this.#worker.postMessage(call, transfer);
    this.#worker.ref();
    return out;
  }

  /** A call whose answer is awaited (rows packed before it go first: calls are answered in order). */
  #call(op: string, ...args: unknown[]): Promise<unknown> {
    this.#sendRows();
    return this.#send(op, args);
  }

  /**
   * A write that returns nothing: inside a transaction it goes without waiting (a failure fails
   * every later call, the commit too); outside one it is awaited.
   */
  #write(op: string, ...args: unknown[]): Promise<void> {
    this.#sendRows();
    const done = this.#send(op, args, this.#depth > 0);
    if (this.#depth === 0) return done.then(() => undefined);
    done.catch(() => {});
    return Promise.resolve();
  }

  /** Sends the packed rows not yet sent (their ids were already given out). */
  #sendRows(): Promise<unknown> | undefined {
    if (this.#packer.count === 0) return undefined;
    const rows: PackedRows = this.#packer.take();
    const done = this.#send('insert', [rows, true], true, [
      rows.lens.buffer as ArrayBuffer,
      rows.nums.buffer as ArrayBuffer,
    ]);
    done.catch(() => {});
    this.#ahead.push(done);
    return done;
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#depth > 0) return fn();
    await this.#call('begin');
    this.#depth++;
    let out: T;
    try {
      out = await fn();
    } catch (error) {
      this.#depth--;
      this.#drop();
      await this.#send('rollback', []).catch(() => {});
      throw error;
    }
    this.#depth--;
    try {
      // The commit fails with whatever failed among the writes not waited for.
      await this.#call('commit');
    } catch (error) {
      // A failed COMMIT was rolled back by the backend; a commit refused before it is rolled back here.
      await this.#send('rollback', []).catch(() => {});
      throw error;
    }
    return out;
  }

  async bulk<T>(fn: () => Promise<T>): Promise<T> {
    const next = (await this.#call('bulk-begin')) as number;
    this.#nextId = next;
    let out: T;
    try {
      out = await fn();
    } catch (error) {
      this.#drop();
      await this.#send('rollback', []).catch(() => {});
      throw error;
    }
    if (this.#sendRows() !== undefined) await this.#onStep?.('worker:posted');
    this.#nextId = 0;
    this.#ahead = [];
    await this.#call('bulk-end');
    return out;
  }

  /** Rows packed and not sent go (a rollback follows). */
  #drop(): void {
    if (this.#packer.count > 0) this.#packer.take();
    this.#nextId = 0;
    this.#ahead = [];
  }

  async insert(rows: readonly NewUrlRow[]): Promise<number[]> {
    // An import inserts every batch, most of them empty past a first import: no message for those.
    if (rows.length === 0) return [];
    if (this.#nextId === 0) {
      this.#sendRows();
      const p = new RowPacker(rows.length);
      for (const r of rows) p.add(r);
      const packed = p.take();
      return (await this.#send('insert', [packed, false], false, [
        packed.lens.buffer as ArrayBuffer,
        packed.nums.buffer as ArrayBuffer,
      ])) as number[];
    }
    const ids: number[] = new Array(rows.length);
    for (let k = 0; k < rows.length; k++) {
      this.#packer.add(rows[k]!);
      ids[k] = this.#nextId++;
      if (this.#packer.full) {
        this.#sendRows();
        await this.#onStep?.('worker:posted');
        // The worker inserts while the main thread reads on, up to AHEAD chunks behind.
        if (this.#ahead.length > AHEAD) await this.#ahead.shift();
      }
    }
    return ids;
  }

  idle(): void {
    if (this.#depth > 0) void this.#write('idle');
  }

  reads(): StoreReads {
    const reads: StoreReads = {
      files: () => this.#call('reads.files') as ReturnType<StoreReads['files']>,
      entries: (file, after, limit) =>
        this.#call('reads.entries', file, after, limit) as ReturnType<StoreReads['entries']>,
    };
    if (this.#hasGeneration) reads.generation = () => this.#call('reads.generation') as Promise<number>;
    // The last build's dates of its files (the lastmod files() gives), read in the worker too.
    reads.published = () => this.#call('reads.published') as ReturnType<NonNullable<StoreReads['published']>>;
    return reads;
  }

  getMeta(key: string): Promise<string | undefined> {
    return this.#call('getMeta', key) as Promise<string | undefined>;
  }
  setMeta(key: string, value: string): Promise<void> {
    return this.#write('setMeta', key, value);
  }
  lookup(locs: readonly string[]): Promise<Map<string, KnownRow>> {
    return this.#call('lookup', locs) as Promise<Map<string, KnownRow>>;
  }
  compare(locs: readonly string[]): Promise<Map<string, CompareRow>> {
    return this.#call('compare', locs) as Promise<Map<string, CompareRow>>;
  }
  rows(ids: readonly number[]): Promise<Map<number, KnownRow>> {
    return this.#call('rows', ids) as Promise<Map<number, KnownRow>>;
  }
  async unseen(seen: (id: number) => boolean): Promise<LightRow[]> {
    const live = (await this.#call('live-ids')) as Float64Array;
    const gone: number[] = [];
    for (const id of live) if (!seen(id)) gone.push(id);
    if (gone.length === 0) return [];
    const rows = await this.rows(gone);
    return gone.map((id) => {
      const r = rows.get(id)!;
      return { id, file: r.file, len: r.len, news: r.news, born: r.born };
    });
  }
  update(rows: readonly UrlRow[]): Promise<void> {
    // Nothing to send (an import's batch of new rows only): the packed rows keep filling.
    if (rows.length === 0) return Promise.resolve();
    return this.#write('update', rows);
  }
  deleteIds(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.#write('deleteIds', ids);
  }
  move(ids: readonly number[], file: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.#write('move', ids, file);
  }
  liveRows(after: number, limit: number): Promise<UrlRow[]> {
    return this.#call('liveRows', after, limit) as Promise<UrlRow[]>;
  }
  scan(after: number, limit: number): Promise<LightRow[]> {
    return this.#call('scan', after, limit) as Promise<LightRow[]>;
  }
  bury(ids: readonly number[], at: string, gen: number): Promise<void> {
    if (ids.length === 0) return Promise.resolve();
    return this.#write('bury', ids, at, gen);
  }
  fragments(file: number, after: number, limit: number): Promise<FragmentRow[]> {
    return this.#call('fragments', file, after, limit) as Promise<FragmentRow[]>;
  }
  newestUrls(firstBuild: number, limit: number): Promise<FeedRow[]> {
    return this.#call('newestUrls', firstBuild, limit) as Promise<FeedRow[]>;
  }
  inputLastmods(
    buildMs: number,
    nearMs: number,
  ): Promise<{ count: number; first: string | null; same: boolean; near: boolean }> {
    return this.#call('inputLastmods', buildMs, nearMs) as Promise<{
      count: number;
      first: string | null;
      same: boolean;
      near: boolean;
    }>;
  }
  tombstones(after: number, limit: number): Promise<UrlRow[]> {
    return this.#call('tombstones', after, limit) as Promise<UrlRow[]>;
  }
  pending(since: number, after: { gen: number; id: number }, limit: number): Promise<PendingRow[]> {
    return this.#call('pending', since, after, limit) as Promise<PendingRow[]>;
  }
  countPending(since: number): Promise<Record<PendingRow['change'], number>> {
    return this.#call('countPending', since) as Promise<Record<PendingRow['change'], number>>;
  }
  countRemovedSince(since: number): Promise<number> {
    return this.#call('countRemovedSince', since) as Promise<number>;
  }
  purge(before: string, published: number): Promise<number> {
    return this.#call('purge', before, published) as Promise<number>;
  }
  files(): Promise<FileRow[]> {
    return this.#call('files') as Promise<FileRow[]>;
  }
  saveFiles(rows: readonly FileRow[], deleted: readonly number[]): Promise<void> {
    return this.#write('saveFiles', rows, deleted);
  }
  published(): Promise<PublishedRow[]> {
    return this.#call('published') as Promise<PublishedRow[]>;
  }
  setPublished(rows: readonly PublishedRow[]): Promise<void> {
    return this.#write('setPublished', rows);
  }

  /** Closes the connection in the worker, then ends the worker (also when the close fails). */
  async close(): Promise<void> {
    try {
      if (this.#gone === undefined) await this.#call('close');
    } finally {
      this.#gone ??= new SitemapkitError('ERR_STATE', 'the site store is closed', { where: this.#path });
      await this.#worker.terminate();
    }
  }
}

/** Opens the store at `path` in a worker thread. Throws the errors `openSqliteBackend` throws. */
export async function openSqliteThread(path: string, onStep?: OnStep): Promise<StoreBackend> {
  const steps = onStep === undefined ? undefined : new SharedArrayBuffer(4);
  const input: WorkerInput = { path, steps };
  // The worker's garbage is short-lived (each chunk's rows): a small young generation keeps its
  // heap from adding to the build's peak (1,000,000 URLs: 250 MB instead of 270 MB).
  const worker = startWorker(WORKER, {
    workerData: input,
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  const b = new ThreadBackend(path, worker, steps === undefined ? undefined : new Int32Array(steps), onStep);
  try {
    await b.start();
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return b;
}

/** A store file that does not exist yet (or is empty): what a first build creates. */
function isNew(path: string): boolean {
  try {
    return !existsSync(path) || statSync(path).size === 0;
  } catch {
    return false;
  }
}

/**
 * Opens an SQLite store: in a worker thread when it holds no URL yet (a first build) and the
 * machine has a second core, or when `worker` is true; in thread otherwise.
 */
export async function openSqliteStore(
  path: string,
  options: { worker?: boolean | undefined; onStep?: OnStep | undefined },
): Promise<StoreBackend> {
  // With one core the thread has nothing to overlap with: it would only add its messages.
  if (options.worker === false || (options.worker !== true && availableParallelism() < 2))
    return openSqliteBackend(path);
  if (options.worker !== true && !isNew(path)) {
    const b = await openSqliteBackend(path);
    let empty: boolean;
    try {
      empty = (await b.scan(0, 1)).length === 0;
    } catch (error) {
      await b.close();
      throw error;
    }
    if (!empty) return b;
    await b.close();
  }
  return openSqliteThread(path, options.onStep);
}
