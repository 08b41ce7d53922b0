/**
 * Reading a document ahead of its turn, and replaying it at its turn. A tree hands its entries out
 * in the order of the sequential walk, while the next children are already being read (in this
 * thread or in a worker): what such a read does (its findings, the positions `onItem` gets, its
 * facts) is recorded with its batches, and played into the run when the walk reaches it, so the
 * caller sees exactly what a sequential read would have shown, in the same order.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { type DocumentPlace, type DocumentRun, readDocument } from './document.js';
import type { ResolvedParseOptions } from './options.js';
import { checkAborted, type ParseRun } from './run.js';
import type { OpenedSource } from './source.js';
import type { DocBatch, DocEnd, DocEvent, Lines } from './tree-wire.js';
import type { ItemPosition, SitemapInfo, SitemapItem } from './types.js';

/** A cross-submit check (`ParseRun.crossSubmits` with the run's HTTP options). */
export type CrossSubmits = (url: string, sitemapUrls: readonly string[]) => Promise<boolean>;

/** A document read ahead: its batches, then its end. `stop()` ends the read, for good. */
export interface DocSource {
  next(): Promise<IteratorResult<DocBatch, DocEnd>>;
  stop(): void;
}

/**
 * Reads `opened` as {@link readDocument} does, with every report kept in the batches instead of
 * delivered. `positions`: record the position of each item (the caller has `onItem`).
 */
export async function* recordDocument(
  opened: OpenedSource,
  o: ResolvedParseOptions,
  crossSubmits: CrossSubmits,
  place: DocumentPlace,
  positions: boolean,
): AsyncGenerator<DocBatch, DocEnd> {
  let events: DocEvent[] = [];
  let at = 0;
  let info: SitemapInfo | undefined;
  const run: DocumentRun = {
    onDiagnostic: (d: Diagnostic) => {
      events.push({ d });
    },
    addSitemap: (i: SitemapInfo) => {
      info = i;
    },
    crossSubmits,
  };
  // Every item of a batch gets its onItem call before the batch is yielded, in the batch's order:
  // the n-th call since the last batch is the batch's n-th item. The position is copied: the
  // parser may reuse its object.
  const onItem = positions
    ? (_item: SitemapItem, _name: string, where: ItemPosition) => {
        events.push({ i: at++, w: { ...where } });
      }
    : undefined;
  const doc = readDocument(
    opened,
    { ...o, onDiagnostic: undefined, onSitemap: undefined, onItem },
    run,
    place,
  );
  let r = await doc.next();
  while (r.done !== true) {
    const batch: DocBatch = { events, items: r.value };
    events = [];
    at = 0;
    yield batch;
    r = await doc.next();
  }
  return { events, info: info ?? r.value };
}

/**
 * The document at its turn: the recorded findings and positions played into `run` and `onItem`
 * before each batch is yielded, the facts given to the run at the end, as {@link readDocument}
 * would have done. Stopping it (`return()`) stops the read.
 */
export async function* replayDocument(
  source: DocSource,
  o: ResolvedParseOptions,
  run: ParseRun,
  name: string,
): AsyncGenerator<SitemapItem[] | Lines, SitemapInfo> {
  const play = (events: readonly DocEvent[], items: readonly SitemapItem[]): void => {
    for (const e of events) {
      if ('d' in e) run.onDiagnostic(e.d);
      else o.onItem?.(items[e.i]!, name, e.w);
    }
  };
  try {
    for (;;) {
      checkAborted(o.http.signal, name);
      let r: IteratorResult<DocBatch, DocEnd>;
      try {
        r = await source.next();
      } catch (error) {
        // Cancelled here while it read there: the abort is this thread's, with its reason.
        checkAborted(o.http.signal, name);
        throw error;
      }
      if (r.done === true) {
        play(r.value.events, []);
        run.addSitemap(r.value.info);
        return r.value.info;
      }
      play(r.value.events, r.value.items);
      yield r.value.lines ?? r.value.items;
    }
  } finally {
    source.stop();
  }
}

/** Batches read ahead in this thread and not yet taken, at most. */
const LOCAL_AHEAD = 8;

/**
 * A {@link recordDocument} running ahead in this thread (for fetches: the downloads of the next
 * children overlap), at most {@link LOCAL_AHEAD} batches before its consumer: in one thread there
 * is no CPU to gain by reading further ahead, only memory to spend (and more of the heap alive at
 * each collection).
 */
export function readAheadLocally(
  opened: OpenedSource,
  o: ResolvedParseOptions,
  crossSubmits: CrossSubmits,
  place: DocumentPlace,
): DocSource {
  const inner = recordDocument(opened, o, crossSubmits, place, o.onItem !== undefined);
  const buffered: Array<IteratorResult<DocBatch, DocEnd>> = [];
  let failure: { error: unknown } | undefined;
  let wakeConsumer: (() => void) | undefined;
  let wakeProducer: (() => void) | undefined;
  let stopped = false;
  let finished = false;
  const wake = (which: 'consumer' | 'producer'): void => {
    const w = which === 'consumer' ? wakeConsumer : wakeProducer;
    if (which === 'consumer') wakeConsumer = undefined;
    else wakeProducer = undefined;
    w?.();
  };
  void (async () => {
    try {
      for (;;) {
        while (buffered.length >= LOCAL_AHEAD && !stopped) {
          await new Promise<void>((resolve) => {
            wakeProducer = resolve;
          });
        }
        if (stopped) break;
        const r = await inner.next();
        if (stopped) break;
        buffered.push(r);
        wake('consumer');
        if (r.done === true) {
          finished = true;
          return;
        }
      }
      await inner.return(undefined as never);
    } catch (error) {
      failure = { error };
      wake('consumer');
    }
  })();
  return {
    async next() {
      for (;;) {
        const r = buffered.shift();
        if (r !== undefined) {
          wake('producer');
          return r;
        }
        if (failure !== undefined) throw failure.error;
        if (stopped) return { done: true, value: undefined as never };
        await new Promise<void>((resolve) => {
          wakeConsumer = resolve;
        });
      }
    },
    stop() {
      if (stopped) return;
      stopped = true;
      // A read waiting for the network ends now rather than at its timeout.
      if (!finished) opened.cancel();
      wake('producer');
      wake('consumer');
    },
  };
}
