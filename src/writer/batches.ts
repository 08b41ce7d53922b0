/**
 * An optional fast lane between sitemapkit's own readers and the writer. A source that also offers
 * `[BATCHES]()` hands over its records an array at a time, so the writer pays for async iteration
 * once a chunk instead of once a record (a measured third of the per-URL cost at a million URLs).
 * To everyone else such a source is a plain async iterable of records.
 */
export const BATCHES: unique symbol = Symbol.for('sitemapkit.batches');

/**
 * Where a record came from, for error messages: set `entry[ORIGIN] = {file, line}` on what a
 * source yields. A symbol, so it is never mistaken for a field nor written out.
 */
export const ORIGIN: unique symbol = Symbol.for('sitemapkit.origin');

export interface RecordOrigin {
  file?: string;
  line?: number;
}

/**
 * Records and where they came from: `lines[i]` is the line of `items[i]` in `file`. Carried beside
 * the records rather than on them, since adding a property to each parsed object costs a
 * hidden-class change per record.
 */
export interface RecordBatch<T> {
  items: T[];
  file?: string;
  lines?: number[];
}

export interface BatchedSource<T> extends AsyncIterable<T> {
  [BATCHES](): AsyncIterable<RecordBatch<T>>;
}

/**
 * Wraps a producer of record batches as an async iterable of records that also offers its
 * batches. Iterated one by one, records get their origin as an `ORIGIN` property.
 */
export function batchedSource<T>(produce: () => AsyncIterable<RecordBatch<T>>): BatchedSource<T> {
  return {
    [BATCHES]: produce,
    async *[Symbol.asyncIterator]() {
      for await (const batch of produce()) {
        for (let i = 0; i < batch.items.length; i++) {
          const item = batch.items[i]!;
          const line = batch.lines?.[i];
          if (batch.file !== undefined && typeof item === 'object' && item !== null && !(ORIGIN in item)) {
            (item as { [ORIGIN]?: RecordOrigin })[ORIGIN] =
              line === undefined ? { file: batch.file } : { file: batch.file, line };
          }
          yield item;
        }
      }
    },
  };
}

/**
 * Chains sources into one batched source (which `writeSitemaps` takes as records checked at run
 * time): the parts that have the fast lane keep it, the others come a record a batch.
 */
export function chainSources<T>(sources: ReadonlyArray<AsyncIterable<T>>): BatchedSource<T> {
  if (sources.length === 1 && batchesOf(sources[0]) !== undefined) return sources[0] as BatchedSource<T>;
  return batchedSource(async function* () {
    for (const s of sources) {
      const batches = batchesOf<T>(s);
      if (batches !== undefined) yield* batches;
      else for await (const item of s) yield { items: [item] };
    }
  });
}

/** Records of a sync source handed to the writer this many at a time. */
const SYNC_BATCH = 1024;

/**
 * Records whose shape is known only at run time (parsed JSON, CSV rows, a database's rows, the
 * readers of `sitemapkit/sources`), for `writeSitemaps`: the explicit way past its compile-time
 * check. Each record is still checked when it is read, under `onInvalid`.
 */
export type UntypedRecords = BatchedSource<unknown>;

/** Marks a source of records of unknown shape for `writeSitemaps` (see {@link UntypedRecords}). */
export function untypedRecords(source: Iterable<unknown> | AsyncIterable<unknown>): UntypedRecords {
  if (batchesOf(source) !== undefined) return source as UntypedRecords;
  if (Symbol.asyncIterator in source) return chainSources([source]);
  return batchedSource(async function* () {
    let items: unknown[] = [];
    for (const item of source) {
      items.push(item);
      if (items.length === SYNC_BATCH) {
        yield { items };
        items = [];
      }
    }
    if (items.length > 0) yield { items };
  });
}

export function batchesOf<T>(source: unknown): AsyncIterable<RecordBatch<T>> | undefined {
  if (typeof source !== 'object' || source === null || !(BATCHES in source)) return undefined;
  const f = (source as { [BATCHES]?: unknown })[BATCHES];
  return typeof f === 'function' ? (f.call(source) as AsyncIterable<RecordBatch<T>>) : undefined;
}
