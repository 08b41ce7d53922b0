/**
 * A tree's parse worker (started by `tree-pool.ts`): reads one document at a time from the raw
 * chunks the main thread hands over (gzip is inflated here), through the same `readDocument` as
 * the main thread, and sends back its batches with what happened while reading them. Its output
 * waits for credit: at most {@link OUT_LIMIT} bytes not yet taken by the main thread, so a child
 * read ahead of its turn stops there instead of filling memory.
 */
import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { DocumentPlace } from './document.js';
import type { HttpOptions } from './http.js';
import type { ResolvedParseOptions } from './options.js';
import type { OpenedSource } from './source.js';
import { encodeItems } from './tree-codec.js';
import { recordDocument } from './tree-record.js';
import {
  type DocBatch,
  type DocTask,
  type FromWorker,
  fromWire,
  type OutMeta,
  ownBuffer,
  type ToWorker,
  toWire,
} from './tree-wire.js';
import type { SitemapItem } from './types.js';

/**
 * Encoded output not yet taken by the main thread, at most: a 50,000-URL child with an image each
 * is about 8 MB, so a child read ahead while the one before it is handed out is read whole.
 */
export const OUT_LIMIT: number = 16 * 1024 * 1024;
/**
 * Items gathered into one message when input keeps coming. Few enough that a message's text stays
 * well under V8's large-object size (128 KB; 256 lines of these children are about 50 KB): a
 * larger string is allocated in the old generation, in the worker and again on the main thread,
 * and filled it with garbage that only a full collection frees. With messages of 4,096 items, one
 * worker reading a 1M-URL tree took 3.8 s of CPU and V8's helper threads 1.3 s; with 200, 2.9 s
 * and 0.5 s (bench/parse-tree.mjs's tree, `--threads 1`).
 */
const FLUSH_ITEMS = 256;

const port = parentPort!;
// The line format's module, loaded while the main thread still reads the root; a failure shows
// again, as the task's error, when the task imports it.
const preload = (workerData as { preload?: string } | undefined)?.preload;
if (preload !== undefined) import(preload).catch(() => undefined);
const UTF8 = new TextEncoder();
const send = (m: FromWorker, transfer?: ArrayBuffer[]): void => port.postMessage(m, transfer ?? []);

class Task {
  readonly id: number;
  readonly #chunks: Uint8Array[] = [];
  #ended = false;
  #inputError: unknown;
  #cancelled = false;
  #outstanding = 0;
  #wake: (() => void) | undefined;
  readonly #answers = new Map<number, (ok: boolean) => void>();
  #q = 0;
  readonly #bySite = new Map<string, Promise<boolean>>();
  #pending: DocBatch[] = [];
  #pendingItems = 0;
  /** The line of a page, when the tree is read into lines. */
  #line: ((item: SitemapItem) => string) | undefined;

  constructor(id: number) {
    this.id = id;
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = undefined;
    w?.();
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  onMessage(m: ToWorker): void {
    if (m.t === 'chunk') this.#chunks.push(m.bytes);
    else if (m.t === 'end') {
      this.#ended = true;
      if (m.error !== undefined) this.#inputError = fromWire(m.error);
    } else if (m.t === 'credit') this.#outstanding -= m.bytes;
    else if (m.t === 'cross') {
      this.#answers.get(m.q)?.(m.ok);
      this.#answers.delete(m.q);
    } else if (m.t === 'cancel') {
      this.#cancelled = true;
      for (const answer of this.#answers.values()) answer(false);
      this.#answers.clear();
    }
    this.#notify();
  }

  /** The body as the main thread reads it: each chunk taken is acknowledged, so that more come. */
  async *body(): AsyncGenerator<Uint8Array> {
    for (;;) {
      if (this.#cancelled) return;
      const chunk = this.#chunks.shift();
      if (chunk !== undefined) {
        send({ t: 'took', id: this.id });
        yield chunk;
        continue;
      }
      if (this.#ended) {
        if (this.#inputError !== undefined) throw this.#inputError;
        return;
      }
      // Waiting for the network: what is read so far goes out now.
      this.#flush();
      await this.#sleep();
    }
  }

  /**
   * The main thread's answer, asked once per site: it depends only on the URL's origin (one
   * robots.txt per site and run) and on this document's own URLs, the same for all its items.
   */
  crossSubmits = (url: string, sitemapUrls: readonly string[]): Promise<boolean> => {
    if (this.#cancelled) return Promise.resolve(false);
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return Promise.resolve(false);
    }
    let answer = this.#bySite.get(origin);
    if (answer === undefined) {
      const q = this.#q++;
      send({ t: 'cross', id: this.id, q, url, sitemapUrls: [...sitemapUrls] });
      answer = new Promise((resolve) => this.#answers.set(q, resolve));
      this.#bySite.set(origin, answer);
    }
    return answer;
  };

  #flush(): void {
    if (this.#pending.length === 0 || this.#cancelled) return;
    if (this.#line !== undefined && this.#pending.every((b) => b.items.every((item) => !('kind' in item)))) {
      this.#flushLines(this.#line);
      return;
    }
    const items =
      this.#pending.length === 1 ? this.#pending[0]!.items : this.#pending.flatMap((b) => b.items);
    const text = items.length === 0 ? undefined : encodeItems(items);
    const meta: OutMeta = { batches: this.#pending.map((b) => ({ events: b.events, n: b.items.length })) };
    if (text === undefined) meta.items = items;
    const buf = ownBuffer(serialize(meta));
    this.#pending = [];
    this.#pendingItems = 0;
    this.#outstanding += buf.byteLength + (text?.length ?? 0);
    send(text === undefined ? { t: 'out', id: this.id, buf } : { t: 'out', id: this.id, buf, text }, [buf]);
  }

  /**
   * The pending batches as lines, in UTF-8: the main thread only puts them in order and writes
   * them. Bytes rather than a string: transferred, they cost the main thread no copy, no encoding
   * and no garbage collection (a string waiting for its turn there survives its young generation
   * and is copied twice by the scavenger: a whole child read ahead is 14 MB of them).
   */
  #flushLines(line: (item: SitemapItem) => string): void {
    const meta: OutMeta = { batches: [], lines: true };
    let text = '';
    // The lines of the last batch in meta (its end is found only if another one follows).
    let group = '';
    let end = 0;
    for (const b of this.#pending) {
      let piece = '';
      for (const item of b.items) piece += line(item);
      const last = meta.batches.at(-1);
      if (last !== undefined && b.events.length === 0) {
        // Nothing happens between these lines and the last batch's: they go out as one batch,
        // and the text is measured only where a finding falls between lines (seldom).
        last.n += b.items.length;
        group += piece;
        continue;
      }
      if (last !== undefined) {
        end += Buffer.byteLength(group);
        last.end = end;
        text += group;
      }
      meta.batches.push({ events: b.events, n: b.items.length });
      group = piece;
    }
    text += group;
    const bytes = ownBuffer(UTF8.encode(text));
    const buf = ownBuffer(serialize(meta));
    this.#pending = [];
    this.#pendingItems = 0;
    this.#outstanding += buf.byteLength + bytes.byteLength;
    send({ t: 'out', id: this.id, buf, bytes }, [buf, bytes]);
  }

  async run(task: DocTask): Promise<void> {
    if (task.lines !== undefined) {
      const { module, name, sitemapJson } = task.lines;
      try {
        const format = (await import(module))[name] as (item: SitemapItem, sitemapJson: string) => string;
        this.#line = (item) => format(item, sitemapJson);
      } catch (error) {
        send({ t: 'error', id: this.id, error: toWire(error) });
        return;
      }
    }
    const opened: OpenedSource = {
      name: task.name,
      redirects: task.redirects,
      fetched: task.fetched,
      body: this.body(),
      cancel: () => undefined,
    };
    if (task.requested !== undefined) opened.requested = task.requested;
    if (task.url !== undefined) opened.url = task.url;
    const o: ResolvedParseOptions = {
      onDiagnostic: undefined,
      onSitemap: undefined,
      onItem: undefined,
      sitemapUrl: task.sitemapUrl,
      allowHosts: task.allowHosts,
      crossSubmit: task.crossSubmit,
      maxBytes: task.maxBytes,
      maxDownloadBytes: task.maxDownloadBytes,
      maxElementDepth: task.maxElementDepth,
      maxDiagnostics: 0,
      rawUrls: task.rawUrls,
      // Only its signal is read here (none: the main thread cancels by message); requests stay there.
      http: { signal: undefined, timeoutMs: 0, maxRedirects: 0 } as unknown as HttpOptions,
    };
    const place: DocumentPlace = {};
    if (task.parent !== undefined) place.parent = task.parent;
    if (task.depth !== undefined) place.depth = task.depth;
    const doc = recordDocument(opened, o, this.crossSubmits, place, task.positions);
    try {
      let r = await doc.next();
      while (r.done !== true && !this.#cancelled) {
        this.#pending.push(r.value);
        this.#pendingItems += r.value.items.length;
        if (this.#pendingItems >= FLUSH_ITEMS) this.#flush();
        while (this.#outstanding > OUT_LIMIT && !this.#cancelled) await this.#sleep();
        r = await doc.next();
      }
      this.#flush();
      if (r.done === true && !this.#cancelled) {
        const buf = ownBuffer(serialize(r.value));
        send({ t: 'done', id: this.id, buf }, [buf]);
      } else {
        await doc.return(undefined as never);
        send({ t: 'error', id: this.id, error: { message: 'cancelled' } });
      }
    } catch (error) {
      this.#flush();
      send({ t: 'error', id: this.id, error: toWire(error) });
    }
  }
}

let current: Task | undefined;
port.on('message', (m: ToWorker) => {
  if (m.t === 'open') {
    const task = new Task(m.id);
    current = task;
    void task.run(m.task).finally(() => {
      if (current === task) current = undefined;
    });
    return;
  }
  if (current?.id === m.id) current.onMessage(m);
});
