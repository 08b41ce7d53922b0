import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import type { HttpOptions } from './http.js';
import type { ResolvedParseOptions } from './options.js';
import type { SitemapInfo, SitemapParse } from './types.js';

/** Most robots.txt files fetched per run to check cross-submits. */
const MAX_CROSS_SUBMIT_HOSTS = 20;

/** The state of one call of an entry point: collected diagnostics, sitemap facts, shared caches. */
export class ParseRun {
  readonly diagnostics: Diagnostic[] = [];
  readonly sitemaps: SitemapInfo[] = [];
  errorCount = 0;
  readonly #options: ResolvedParseOptions;
  readonly #listed = new Map<string, Promise<ReadonlySet<string>>>();

  constructor(options: ResolvedParseOptions) {
    this.#options = options;
  }

  readonly onDiagnostic = (d: Diagnostic): void => {
    if (d.severity === 'error') this.errorCount++;
    if (this.diagnostics.length < this.#options.maxDiagnostics) this.diagnostics.push(d);
    this.#options.onDiagnostic?.(d);
  };

  addSitemap(info: SitemapInfo): void {
    this.sitemaps.push(info);
    this.#options.onSitemap?.(info);
  }

  /**
   * Whether the robots.txt of `url`'s site names one of `sitemapUrls` (a cross-submit,
   * sitemaps.org). One fetch per site and run; at most 20 sites, the rest count as not naming it.
   */
  async crossSubmits(url: string, sitemapUrls: readonly string[], http: HttpOptions): Promise<boolean> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return false;
    }
    let listed = this.#listed.get(origin);
    if (listed === undefined) {
      if (this.#listed.size >= MAX_CROSS_SUBMIT_HOSTS) return false;
      // robots.txt code is loaded only when a cross-submit is checked: a local file never needs it.
      listed = import('../robots/fetch.js')
        .then(({ fetchRobotsTxt }) =>
          fetchRobotsTxt(origin, {
            httpClient: http.client,
            timeoutMs: Math.min(http.timeoutMs, 10_000),
            maxRedirects: http.maxRedirects,
            ...(http.signal === undefined ? {} : { signal: http.signal }),
          }),
        )
        .then(
          (r) => new Set(r.robots.sitemaps),
          () => new Set<string>(),
        );
      this.#listed.set(origin, listed);
    }
    const set = await listed;
    // robots.txt URLs come WHATWG-serialised; so must ours (host case, default port, empty path).
    return sitemapUrls.some((s) => set.has(s) || set.has(serialised(s)));
  }

  /**
   * The result object: iterable once; the collections fill while it runs. `generate` yields
   * batches; the iterator hands their items out one by one without an async generator per item
   * (each `yield` of an async generator costs extra ticks, a third of the time of a fast parse).
   */
  result<T>(generate: () => AsyncGenerator<T[]>): SitemapParse<T> {
    let started = false;
    const run = this;
    const start = (): AsyncGenerator<T[]> => {
      if (started) {
        throw new SitemapkitError('ERR_OPTIONS', 'a parse result can be iterated only once', {
          hint: 'call parseSitemap again, or collect the items with parseSitemapToArray',
        });
      }
      started = true;
      return generate();
    };
    const result: SitemapParse<T> = {
      get diagnostics(): readonly Diagnostic[] {
        return run.diagnostics;
      },
      get sitemaps(): readonly SitemapInfo[] {
        return run.sitemaps;
      },
      get errorCount(): number {
        return run.errorCount;
      },
      [Symbol.asyncIterator](): AsyncIterator<T> {
        return new BatchIterator(start());
      },
    };
    BATCH_LANES.set(result, start);
    return result;
  }
}

/** The batch lane of each result made by {@link ParseRun.result}. */
const BATCH_LANES = new WeakMap<object, () => AsyncGenerator<unknown[]>>();

/**
 * The items of a result an array at a time, as the parser produced them (one array per chunk
 * read): sitemapkit's own consumers (`sitemapkit parse`) pay one await per chunk instead of one
 * per item. Iterating it counts as the result's one iteration.
 */
export function itemBatches<T>(result: SitemapParse<T>): AsyncIterable<T[]> {
  const start = BATCH_LANES.get(result) as (() => AsyncGenerator<T[]>) | undefined;
  if (start === undefined) {
    return (async function* () {
      for await (const item of result) yield [item];
    })();
  }
  return { [Symbol.asyncIterator]: start };
}

/** Batches of page entries read whole whose strings all need no escaping in JSON. */
const PLAIN_BATCHES = new WeakSet<object>();

/** Marks a batch of {@link itemBatches} as made only of plain entries (document.ts). */
export function markPlain(batch: readonly unknown[]): void {
  PLAIN_BATCHES.add(batch);
}

/**
 * Whether every item of a batch of {@link itemBatches} is a page entry, as the parser made it,
 * whose strings need no escaping in JSON (no `"`, `\\`, control character or surrogate), so
 * that its JSON line can be written without looking (`sitemapkit parse`). False when unknown.
 */
export function isPlainBatch(batch: readonly unknown[]): boolean {
  return PLAIN_BATCHES.has(batch);
}

/** Items of a batch source, one `next()` at a time; only an empty buffer waits for the source. */
class BatchIterator<T> implements AsyncIterator<T> {
  readonly #source: AsyncGenerator<T[]>;
  #batch: T[] = [];
  #at = 0;
  #done = false;

  constructor(source: AsyncGenerator<T[]>) {
    this.#source = source;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#at < this.#batch.length)
      return Promise.resolve({ value: this.#batch[this.#at++]!, done: false });
    return this.#pull();
  }

  async return(): Promise<IteratorResult<T>> {
    this.#done = true;
    this.#batch = [];
    await this.#source.return(undefined as never);
    return { value: undefined, done: true };
  }

  async #pull(): Promise<IteratorResult<T>> {
    while (!this.#done) {
      const r = await this.#source.next();
      if (r.done === true) break;
      if (r.value.length > 0) {
        this.#batch = r.value;
        this.#at = 1;
        return { value: r.value[0]!, done: false };
      }
    }
    this.#done = true;
    return { value: undefined, done: true };
  }
}

function serialised(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Throws `ERR_ABORTED` when the signal has fired. */
export function checkAborted(signal: AbortSignal | undefined, where: string): void {
  if (signal?.aborted === true) {
    throw new SitemapkitError('ERR_ABORTED', 'aborted', { where, cause: signal.reason });
  }
}
