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

/** Chains sources; the result keeps the fast lane when every part has it. */
export function chainSources<T>(sources: ReadonlyArray<AsyncIterable<T>>): AsyncIterable<T> {
  if (sources.length === 1) return sources[0]!;
  if (sources.every((s) => batchesOf(s) !== undefined)) {
    return batchedSource(async function* () {
      for (const s of sources) yield* batchesOf(s)!;
    });
  }
  return {
    async *[Symbol.asyncIterator]() {
      for (const s of sources) yield* s;
    },
  };
}

export function batchesOf<T>(source: unknown): AsyncIterable<RecordBatch<T>> | undefined {
  if (typeof source !== 'object' || source === null || !(BATCHES in source)) return undefined;
  const f = (source as { [BATCHES]?: unknown })[BATCHES];
  return typeof f === 'function' ? (f.call(source) as AsyncIterable<RecordBatch<T>>) : undefined;
}
