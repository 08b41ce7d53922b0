/**
 * The main thread's side of a tree's parse workers: a pool of worker threads started as they are
 * first needed, handed out strictly in the order they were asked for (the walk asks in its own
 * order, so the document whose turn it is never waits behind documents read ahead of it), and a
 * {@link DocSource} per document read in a worker. The main thread reads the body (a file, or a
 * fetch through the run's HTTP client) and hands its raw chunks over, at most a few ahead of the
 * worker; the worker's output waits, serialised, until the walk reaches the document.
 */
import { deserialize } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { SitemapkitError } from '../core/errors.js';
import { startWorker } from '../core/worker-argv.js';
import type { OpenedSource } from './source.js';
import { decodeItems } from './tree-codec.js';
import type { CrossSubmits, DocSource } from './tree-record.js';
import {
  type DocBatch,
  type DocEnd,
  type DocTask,
  type FromWorker,
  fromWire,
  type OutMeta,
  type ToWorker,
  toWire,
} from './tree-wire.js';

// Under the test runner this module is TypeScript; the worker runs the build's JavaScript.
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/parser/tree-worker.js', import.meta.url)
  : new URL('./tree-worker.js', import.meta.url);
let workerUrl = WORKER;

/** Tests only: the script pools started from now on run (undefined: the real worker again). */
export function useParseWorker(url: URL | undefined): void {
  workerUrl = url ?? WORKER;
}

/** Raw chunks handed to a worker and not yet taken by it, at most. */
const INPUT_AHEAD = 4;

interface Remote {
  onMessage(m: FromWorker): void;
  /** The worker's thread ended under the document: `why` says how. */
  onCrash(why: string): void;
}

export interface PoolWorker {
  worker: Worker;
  task: Remote | undefined;
}

/** A request for a worker. */
export interface Ticket {
  granted: Promise<PoolWorker>;
  withdraw(): boolean;
}

/** Worker threads for a tree's documents, at most `size`, started on demand. */
export class ParsePool {
  readonly size: number;
  readonly #all = new Set<PoolWorker>();
  readonly #idle: PoolWorker[] = [];
  readonly #waiting: Array<(w: PoolWorker) => void> = [];
  #nextId = 1;
  #closed = false;
  readonly #preload: string | undefined;

  /** `preload`: a module each worker imports as it starts (the line format's), before its first task. */
  constructor(size: number, preload?: string) {
    this.size = size;
    this.#preload = preload;
  }

  /**
   * Starts every worker now, idle: a worker's start (its isolate, its modules: about 50 ms on an
   * idle core, far more on a loaded one) then overlaps the fetch and read of the root instead of
   * delaying the first child read in it.
   */
  warm(): void {
    while (!this.#closed && this.#all.size < this.size) {
      const w = this.#start();
      w.worker.unref();
      this.#idle.push(w);
    }
  }

  /**
   * A worker, when every earlier request has had one. `withdraw` takes back a request not granted
   * yet (true), or says it was granted (false: whoever holds it releases it).
   */
  request(): Ticket {
    let grant: ((w: PoolWorker) => void) | undefined;
    const granted = new Promise<PoolWorker>((resolve) => {
      grant = resolve;
    });
    this.#waiting.push(grant!);
    this.#dispatch();
    return {
      granted,
      withdraw: () => {
        const i = this.#waiting.indexOf(grant!);
        if (i >= 0) this.#waiting.splice(i, 1);
        return i >= 0;
      },
    };
  }

  nextId(): number {
    return this.#nextId++;
  }

  /** Gives a worker back (its task is over). */
  release(w: PoolWorker): void {
    w.task = undefined;
    w.worker.unref();
    if (!this.#all.has(w)) return;
    this.#idle.push(w);
    this.#dispatch();
  }

  #dispatch(): void {
    while (!this.#closed && this.#waiting.length > 0) {
      let w = this.#idle.shift();
      if (w === undefined && this.#all.size < this.size) w = this.#start();
      if (w === undefined) return;
      w.worker.ref();
      this.#waiting.shift()!(w);
    }
  }

  #start(): PoolWorker {
    // A worker's garbage is short-lived (each chunk's entries, once encoded): a small young
    // generation keeps its heap small (a 1,000,000-URL tree: peak RSS 260 MB instead of 327).
    const worker = startWorker(workerUrl, {
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
      workerData: { preload: this.#preload },
    });
    const w: PoolWorker = { worker, task: undefined };
    const gone = (why: string): void => {
      if (!this.#all.delete(w)) return;
      const i = this.#idle.indexOf(w);
      if (i >= 0) this.#idle.splice(i, 1);
      w.task?.onCrash(why);
      w.task = undefined;
      this.#dispatch();
    };
    worker.on('message', (m: FromWorker) => w.task?.onMessage(m));
    worker.on('error', (error) => gone(`a parse worker failed (${error.message})`));
    worker.on('exit', (code) => {
      if (!this.#closed) gone(`a parse worker stopped (exit code ${code})`);
    });
    this.#all.add(w);
    return w;
  }

  /**
   * Stops every worker. Not awaited: a worker being terminated does not keep the event loop
   * alive, so a caller awaiting its exit after Ctrl-C could see the process end under it (exit
   * code 13, a top-level await that never settled) instead of finishing its own cleanup.
   */
  close(): void {
    this.#closed = true;
    this.#waiting.length = 0;
    for (const w of this.#all) void w.worker.terminate().catch(() => undefined);
    this.#all.clear();
    this.#idle.length = 0;
  }
}

/**
 * `opened` read in the worker `ticket` brings: its batches as they come back, deserialised only
 * when taken.
 */
export function readInWorker(
  pool: ParsePool,
  ticket: Ticket,
  opened: OpenedSource,
  task: DocTask,
  crossSubmits: CrossSubmits,
): DocSource {
  return new RemoteDocument(pool, ticket, opened, task, crossSubmits);
}

class RemoteDocument implements DocSource, Remote {
  readonly #pool: ParsePool;
  readonly #opened: OpenedSource;
  readonly #crossSubmits: CrossSubmits;
  readonly #ticket: Ticket;
  #worker: PoolWorker | undefined;
  #id = 0;
  readonly #buffers: Array<{ buf: ArrayBuffer; text: string | undefined; bytes: ArrayBuffer | undefined }> =
    [];
  #batches: DocBatch[] = [];
  #at = 0;
  #end: DocEnd | undefined;
  #error: Error | undefined;
  #stopped = false;
  /** The worker is done with this document (its end, an error, or a crash). */
  #over = false;
  #inFlight = 0;
  #wakeConsumer: (() => void) | undefined;
  #wakePump: (() => void) | undefined;

  constructor(
    pool: ParsePool,
    ticket: Ticket,
    opened: OpenedSource,
    task: DocTask,
    crossSubmits: CrossSubmits,
  ) {
    this.#pool = pool;
    this.#opened = opened;
    this.#crossSubmits = crossSubmits;
    this.#ticket = ticket;
    void this.#start(task);
  }

  #post(m: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (this.#worker !== undefined && !this.#over) this.#worker.worker.postMessage(m, transfer);
  }

  #wake(which: 'consumer' | 'pump'): void {
    const w = which === 'consumer' ? this.#wakeConsumer : this.#wakePump;
    if (which === 'consumer') this.#wakeConsumer = undefined;
    else this.#wakePump = undefined;
    w?.();
  }

  async #start(task: DocTask): Promise<void> {
    const w = await this.#ticket.granted;
    if (this.#stopped) {
      this.#pool.release(w);
      return;
    }
    this.#worker = w;
    this.#id = this.#pool.nextId();
    w.task = this;
    this.#post({ t: 'open', id: this.#id, task });
    const it = this.#opened.body[Symbol.asyncIterator]();
    try {
      for (;;) {
        while (this.#inFlight >= INPUT_AHEAD && !this.#stopped && !this.#over) {
          await new Promise<void>((resolve) => {
            this.#wakePump = resolve;
          });
        }
        if (this.#stopped || this.#over) return;
        const r = await it.next();
        if (r.done === true) {
          this.#post({ t: 'end', id: this.#id });
          return;
        }
        this.#inFlight++;
        // A copy of its own to transfer (a Buffer's slice() is a view): the chunk's memory may be
        // shared with the stream that read it, and its other chunks.
        const bytes = new Uint8Array(r.value);
        this.#post({ t: 'chunk', id: this.#id, bytes }, [bytes.buffer as ArrayBuffer]);
      }
    } catch (error) {
      this.#post({ t: 'end', id: this.#id, error: toWire(error) });
    }
  }

  onMessage(m: FromWorker): void {
    if (m.id !== this.#id) return;
    switch (m.t) {
      case 'took':
        this.#inFlight--;
        this.#wake('pump');
        return;
      case 'out':
        this.#buffers.push({ buf: m.buf, text: m.text, bytes: m.bytes });
        break;
      case 'done':
        this.#end = deserialize(Buffer.from(m.buf)) as DocEnd;
        this.#finish();
        break;
      case 'error':
        if (!this.#stopped) this.#error = fromWire(m.error);
        this.#finish();
        break;
      case 'cross':
        void this.#crossSubmits(m.url, m.sitemapUrls).then(
          (ok) => this.#post({ t: 'cross', id: this.#id, q: m.q, ok }),
          () => this.#post({ t: 'cross', id: this.#id, q: m.q, ok: false }),
        );
        return;
    }
    this.#wake('consumer');
  }

  onCrash(why: string): void {
    this.#over = true;
    this.#error ??= new SitemapkitError('ERR_INPUT', `${why} while reading ${this.#opened.name}`, {
      where: this.#opened.name,
      hint: 'read the tree in this thread: threads 0 (CLI: --threads 0)',
    });
    this.#opened.cancel();
    this.#wake('pump');
    this.#wake('consumer');
  }

  #finish(): void {
    this.#over = true;
    this.#wake('pump');
    this.#pool.release(this.#worker!);
  }

  async next(): Promise<IteratorResult<DocBatch, DocEnd>> {
    for (;;) {
      if (this.#at < this.#batches.length) return { done: false, value: this.#batches[this.#at++]! };
      const out = this.#buffers.shift();
      if (out !== undefined) {
        const meta = deserialize(Buffer.from(out.buf)) as OutMeta;
        if (meta.lines === true) {
          const bytes = out.bytes ?? new ArrayBuffer(0);
          let from = 0;
          this.#batches = meta.batches.map((b) => {
            const end = b.end ?? bytes.byteLength;
            const batch: DocBatch = {
              events: b.events,
              items: [],
              lines: { bytes: new Uint8Array(bytes, from, end - from), count: b.n },
            };
            from = end;
            return batch;
          });
        } else {
          const items = meta.items ?? (out.text === undefined ? [] : decodeItems(out.text));
          let at = 0;
          this.#batches = meta.batches.map((b) => {
            const batch = { events: b.events, items: items.slice(at, at + b.n) };
            at += b.n;
            return batch;
          });
        }
        this.#at = 0;
        this.#post({
          t: 'credit',
          id: this.#id,
          bytes: out.buf.byteLength + (out.text?.length ?? 0) + (out.bytes?.byteLength ?? 0),
        });
        continue;
      }
      if (this.#error !== undefined) throw this.#error;
      if (this.#end !== undefined) return { done: true, value: this.#end };
      if (this.#stopped) return { done: true, value: undefined as never };
      await new Promise<void>((resolve) => {
        this.#wakeConsumer = resolve;
      });
    }
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#ticket.withdraw();
    this.#buffers.length = 0;
    this.#batches = [];
    if (!this.#over) {
      this.#opened.cancel();
      this.#post({ t: 'cancel', id: this.#id });
    }
    this.#wake('pump');
    this.#wake('consumer');
  }
}
