/**
 * Index trees: follows sitemap indexes recursively, with a depth cap, caps on sitemaps and URLs,
 * cycle detection (self, parent, through redirects) and failure isolation: a child that cannot be
 * fetched or read is a diagnostic, and the others still yield.
 *
 * Order: the walk takes the sitemaps one at a time, breadth first (the roots, then the children
 * of each index in the order listed, appended as their index is read), and hands out each one's
 * entries, findings and facts in document order, exactly as a walk with concurrency 1. Up to
 * `concurrency` sitemaps are in flight at once: the next ones in line are opened and read ahead of
 * their turn (in parse workers when `threads` allows, else in this thread), and what they yield
 * and report is kept, bounded, until their turn comes (`tree-ahead.ts`, `tree-record.ts`).
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { isSitemapkitError, type SitemapkitError } from '../core/errors.js';
import { Channel } from './channel.js';
import { readDocument } from './document.js';
import { fetchFailureCode } from './http.js';
import { closeHttp, type ResolvedTreeOptions, resolveTreeOptions } from './options.js';
import { makeDiagnostic } from './reporter.js';
import type { ParserRuleCode } from './rules.js';
import { ParseRun } from './run.js';
import { openSource } from './source.js';
import { Ahead } from './tree-ahead.js';
import { ParsePool } from './tree-pool.js';
import { type CrossSubmits, replayDocument } from './tree-record.js';
import type { Lines, TreeLineFormat } from './tree-wire.js';
import type { SitemapInfo, SitemapItem, SitemapParse, TreeEntry, TreeOptions } from './types.js';

/** Entries handed over but not yet consumed, at most. */
const CHANNEL_CAPACITY = 64;

interface Job {
  url: string;
  parent?: string;
  depth: number;
  /** Normalised URLs of the indexes above (and the redirects that led to them). */
  ancestors: readonly string[];
  /** Started before its turn. */
  ahead?: Ahead;
  /** Its place among the sitemaps queued (0 for the first root). */
  seq: number;
}

/**
 * The diagnostic for a sitemap that could not be opened: `fetch-status`, `fetch-redirect` or
 * `fetch-failed` (a file that cannot be read counts as the last).
 */
export function openFailure(error: SitemapkitError, sitemap: string, parent?: string): Diagnostic {
  const code: ParserRuleCode = fetchFailureCode(error);
  const at = error.where !== undefined && error.where !== sitemap ? ` at ${error.where}` : '';
  const via = parent === undefined ? '' : ` (listed in ${parent})`;
  return makeDiagnostic(code, `${error.message}${at}${via}`, sitemap, {});
}

/** The key of a URL for cycle detection: WHATWG-serialised, without fragment. */
function keyOf(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

/**
 * Reads one or more sitemaps and follows every index below them. Yields page entries with the
 * sitemap (URL or path, as listed) they came from; index children are followed, not yielded.
 * Roots are paths or URLs; children are always fetched over http(s).
 *
 * When a single root cannot be opened at all, the iteration throws (`ERR_HTTP`, `ERR_INPUT`), as
 * {@link parseSitemap} does; with several roots, and for every child, failures are diagnostics.
 *
 * @example
 * for await (const e of parseSitemapTree('https://www.example.com/sitemap_index.xml')) console.log(e.loc);
 */
export function parseSitemapTree(
  roots: string | readonly string[],
  options: TreeOptions = {},
): SitemapParse<TreeEntry> {
  const o = resolveTreeOptions(options);
  const list = typeof roots === 'string' ? [roots] : [...roots];
  const run = new ParseRun(o);
  return run.result(() => walk(list, o, run, ENTRIES));
}

/**
 * {@link parseSitemapTree} read into lines of text, in the same order, with the same findings and
 * limits: each page is `format.line(item, sitemapJson)`, written in the parse worker that read it
 * (`threads`) or in this thread, so that no entry crosses between threads (the CLI's `parse URL
 * --format jsonl`). Yields runs of whole lines and how many there are.
 */
export function parseSitemapTreeLines(
  roots: string | readonly string[],
  options: TreeOptions,
  format: TreeLineFormat,
): SitemapParse<Lines> {
  const o = resolveTreeOptions(options);
  const list = typeof roots === 'string' ? [roots] : [...roots];
  const run = new ParseRun(o);
  let name = '';
  let nameJson = '""';
  const out: Output<Lines> = {
    lines: format,
    pages(items, sitemap) {
      if (sitemap !== name) {
        name = sitemap;
        nameJson = JSON.stringify(sitemap);
      }
      let text = '';
      for (const item of items) text += format.line(item, nameJson);
      return [{ text, count: items.length }];
    },
    text: (lines) => [lines],
  };
  return run.result(() => walk(list, o, run, out));
}

/** What the walk hands out: pages read in this thread, and lines written by a worker. */
interface Output<T> {
  lines: TreeLineFormat | undefined;
  pages(items: SitemapItem[], sitemap: string): T[];
  text(lines: Lines): T[];
}

const ENTRIES: Output<TreeEntry> = {
  lines: undefined,
  pages(items, sitemap) {
    // The parser made these objects for this walk alone: tag them rather than copy them.
    for (const item of items) (item as TreeEntry).sitemap = sitemap;
    return items as TreeEntry[];
  },
  text: () => [],
};

/** The first `n` lines of `lines`. */
function firstLines(lines: Lines, n: number): Lines {
  let end = 0;
  if ('text' in lines) {
    for (let i = 0; i < n; i++) end = lines.text.indexOf('\n', end) + 1;
    return { text: lines.text.slice(0, end), count: n };
  }
  // A newline's byte is never part of another character's UTF-8.
  for (let i = 0; i < n; i++) end = lines.bytes.indexOf(10, end) + 1;
  return { bytes: lines.bytes.subarray(0, end), count: n };
}

async function* walk<T>(
  roots: readonly string[],
  options: ResolvedTreeOptions,
  run: ParseRun,
  output: Output<T>,
): AsyncGenerator<T[]> {
  const controller = new AbortController();
  const user = options.http.signal;
  const o: ResolvedTreeOptions = {
    ...options,
    http: {
      ...options.http,
      signal: user === undefined ? controller.signal : AbortSignal.any([user, controller.signal]),
    },
  };
  const channel = new Channel<T>(CHANNEL_CAPACITY);
  const visited = new Set<string>();
  const queue: Job[] = [];
  const reported = new Set<string>();
  const pool = o.threads > 0 ? new ParsePool(o.threads, output.lines?.module) : undefined;
  // The workers start while the root is fetched and read (here, when it is the only one).
  pool?.warm();
  const crossSubmits: CrossSubmits = (url, sitemapUrls) => run.crossSubmits(url, sitemapUrls, o.http);
  let read = 0;
  let urls = 0;
  let stopped = false;

  const report = (code: ParserRuleCode, message: string, sitemap: string, once?: string): void => {
    if (once !== undefined) {
      if (reported.has(once)) return;
      reported.add(once);
    }
    run.onDiagnostic(makeDiagnostic(code, message, sitemap, {}));
  };
  const reportFull = (sitemap: string): void =>
    report(
      'tree-limit',
      `more than ${o.maxUrls.toLocaleString('en-US')} URLs (maxUrls); reading stopped`,
      sitemap,
      'max-urls',
    );
  const clear = (): void => {
    for (const job of queue) job.ahead?.stop();
    queue.length = 0;
  };
  const stop = (): void => {
    stopped = true;
    clear();
    controller.abort();
  };
  const placeOf = (job: Job): { parent?: string; depth: number } =>
    job.parent === undefined ? { depth: job.depth } : { parent: job.parent, depth: job.depth };
  // Roots are read in workers only when threads were asked for and there are several: by default,
  // only an index's children. A single root is read here: nothing else can start before its
  // children are known, and a worker's start would delay them (the pool starts meanwhile).
  // This thread reads its share too, one sitemap in threads + 1 (the last of each run), for it has
  // little else to do: with lines (parseSitemapTreeLines) it only orders and writes the workers'
  // output. With one worker on two cores the two threads take every other child, and the whole
  // costs less CPU than two workers (one isolate less to warm up and collect), bench/parse-tree.mjs.
  const inWorker = (job: Job): boolean =>
    pool !== undefined &&
    (job.depth > 0 || (o.threadsForRoots && roots.length > 1)) &&
    job.seq % (o.threads + 1) !== o.threads;
  let queued = 0;
  const start = (job: Job): Ahead =>
    new Ahead(job.url, o, placeOf(job), crossSubmits, inWorker(job) ? pool : undefined, output.lines);

  /**
   * Starts the sitemaps next in line, in order, so that at most `concurrency` are in flight with
   * the one being read; none that the sitemap cap will refuse.
   */
  function fill(): void {
    const ahead = Math.min(queue.length, o.concurrency - 1, o.maxSitemaps - read);
    for (let p = 0; p < ahead; p++) {
      const job = queue[p]!;
      job.ahead ??= start(job);
    }
  }

  const relation = (key: string, ancestors: readonly string[]): 'cycle' | 'duplicate' =>
    ancestors.includes(key) ? 'cycle' : 'duplicate';

  async function processJob(job: Job): Promise<void> {
    if (read >= o.maxSitemaps) {
      report(
        'tree-limit',
        `more than ${o.maxSitemaps.toLocaleString('en-US')} sitemaps (maxSitemaps); the rest were not read`,
        job.url,
        'max-sitemaps',
      );
      clear();
      return;
    }
    read++;
    const ahead = job.ahead ?? (inWorker(job) ? start(job) : undefined);
    fill();
    let opened: Awaited<ReturnType<typeof openSource>>;
    try {
      opened = await (ahead?.opened ?? openSource(job.url, o.http));
    } catch (error) {
      if (stopped) return;
      if (job.depth === 0 && roots.length === 1) throw error;
      if (isSitemapkitError(error, 'ERR_ABORTED') || !isSitemapkitError(error)) throw error;
      run.onDiagnostic(openFailure(error, job.url, job.parent));
      const info: SitemapInfo = {
        sitemap: job.url,
        gzip: false,
        entries: 0,
        sitemaps: 0,
        bytes: 0,
        downloadedBytes: 0,
        inflatedBytes: 0,
        errors: 1,
        warnings: 0,
        depth: job.depth,
      };
      if (job.parent !== undefined) info.parent = job.parent;
      run.addSitemap(info);
      return;
    }
    const own = keyOf(job.url);
    for (const hop of opened.redirects.map(keyOf)) {
      if (hop === own || !visited.has(hop)) continue;
      opened.cancel();
      ahead?.stop();
      const isCycle = relation(hop, [...job.ancestors, own]) === 'cycle';
      report(
        isCycle ? 'index-cycle' : 'index-duplicate',
        isCycle
          ? `${job.url} redirects to ${hop}, an index above it: not followed again`
          : `${job.url} redirects to ${hop}, which was already read`,
        job.parent ?? job.url,
      );
      return;
    }
    for (const hop of opened.redirects) visited.add(keyOf(hop));
    const ancestors = [...job.ancestors, own, ...opened.redirects.map(keyOf)];
    const doc: AsyncGenerator<SitemapItem[] | Lines, SitemapInfo> =
      ahead === undefined
        ? readDocument(opened, o, run, placeOf(job))
        : replayDocument(ahead.source, o, run, opened.name);
    let r = await doc.next();
    while (!r.done) {
      let out: T[];
      let full = false;
      if (!Array.isArray(r.value)) {
        // A worker's lines: pages only.
        let lines = r.value;
        if (urls + lines.count > o.maxUrls) {
          lines = firstLines(lines, o.maxUrls - urls);
          reportFull(job.url);
          full = true;
        }
        urls += lines.count;
        out = lines.count === 0 ? [] : output.text(lines);
      } else {
        const pages: SitemapItem[] = [];
        for (const item of r.value) {
          if ('kind' in item) {
            const key = keyOf(item.loc);
            if (visited.has(key)) {
              const isCycle = relation(key, ancestors) === 'cycle';
              report(
                isCycle ? 'index-cycle' : 'index-duplicate',
                isCycle
                  ? `lists ${item.loc}, which contains this index: a cycle, not followed`
                  : `lists ${item.loc}, which was already read`,
                job.url,
              );
            } else if (job.depth + 1 > o.maxDepth) {
              report(
                'index-depth',
                `indexes nest deeper than ${o.maxDepth} levels (maxDepth); ${item.loc} and its siblings were not read`,
                job.url,
                `depth:${job.url}`,
              );
            } else {
              visited.add(key);
              queue.push({ url: item.loc, parent: job.url, depth: job.depth + 1, ancestors, seq: queued++ });
              fill();
            }
          } else if (urls >= o.maxUrls) {
            reportFull(job.url);
            full = true;
            break;
          } else {
            urls++;
            pages.push(item);
          }
        }
        out = pages.length === 0 ? [] : output.pages(pages, job.url);
      }
      const delivered = out.length === 0 || (await channel.push(out));
      if (full || !delivered || stopped) {
        await doc.return(undefined as never);
        if (full) stop();
        return;
      }
      r = await doc.next();
    }
    if (r.value.format === 'sitemapindex' && job.depth > 0) {
      report(
        'index-nested',
        `this index is listed by the index ${job.parent}: followed, though the protocol does not nest indexes`,
        job.url,
      );
    }
  }

  /** The walk: one sitemap at a time, in order, while the next ones are read ahead. */
  async function drive(): Promise<void> {
    while (!stopped && queue.length > 0) await processJob(queue.shift()!);
  }

  for (const root of roots) {
    o.http.client.start(root);
    const key = keyOf(root);
    if (visited.has(key)) continue;
    visited.add(key);
    queue.push({ url: root, depth: 0, ancestors: [], seq: queued++ });
  }
  fill();
  drive().then(
    () => channel.close(),
    (error: unknown) => {
      if (!stopped) channel.close(error);
      stop();
    },
  );
  try {
    for (let batch = await channel.take(); batch !== undefined; batch = await channel.take()) yield batch;
  } finally {
    stop();
    channel.close();
    pool?.close();
    await closeHttp(options.http);
  }
}
