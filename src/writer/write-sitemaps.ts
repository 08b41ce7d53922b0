/**
 * `writeSitemaps`: any (async) iterable of entries → a complete, protocol-exact sitemap set, in a
 * folder (replaced atomically), in memory or in web streams. A façade: the intake normalises and
 * checks records, the pure engine rotates and serialises them, and a sink stores the files and
 * publishes them (see folder-sink.ts for the crash guarantees). Memory stays flat: one buffered
 * chunk per open file, the look-ahead of 1,000 entries, and the hashed duplicate set.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { SitemapEntryInput } from '../core/entry.js';
import type { UntypedRecords } from './batches.js';
import { type Finished, finish, judge, type WrittenFile } from './finish.js';
import { loadGzip } from './gzip.js';
import { checkAbort, consume, UnreadableRecord } from './intake.js';
import type { ManifestFile } from './manifest.js';
import { MemorySink } from './memory-sink.js';
import { type ResolvedWriterOptions, resolveWriterOptions, type WriteSitemapsOptions } from './options.js';
import { Run } from './run.js';
import type { Sink } from './sink.js';
import { WebStreamSink } from './web-stream-sink.js';

export { ORIGIN, type RecordOrigin, type UntypedRecords, untypedRecords } from './batches.js';

/**
 * What {@link writeSitemaps} reads: entries it can check at compile time (any sync or async
 * iterable of {@link SitemapEntryInput}, which also takes the documented shorthand and every
 * parsed {@link SitemapEntry}), or records of unknown shape marked with `untypedRecords()`.
 * `UnreadableRecord`s stand for records a source could not decode.
 */
export type EntrySource =
  | Iterable<SitemapEntryInput | UnreadableRecord>
  | AsyncIterable<SitemapEntryInput | UnreadableRecord>
  | UntypedRecords;
export { UnreadableRecord, type WrittenFile };

export interface WriteSitemapsResult {
  /** The entry point: `sitemap.xml[.gz]` (or `sitemap.txt[.gz]`). */
  entry: WrittenFile;
  /** Every file that robots.txt should name: the entry point, then any extra indexes. */
  roots: WrittenFile[];
  /** Every sitemap file written (children, indexes and the entry point). */
  files: WrittenFile[];
  /** HTML site map pages, when `html` was asked for. */
  html: WrittenFile[];
  /** The delta feed (`feed.xml`), when `feed` was asked for; `urls` is the number it lists. */
  feed?: WrittenFile;
  /** URLs written. */
  urls: number;
  /** Records left out (invalid or duplicate, under `onInvalid: 'skip'`). */
  skipped: number;
  /** Findings, by severity. */
  counts: { error: number; warning: number; info: number };
  /** The first 1,000 findings (all of them went to `onDiagnostic`). */
  diagnostics: Diagnostic[];
  /**
   * With `output: 'memory'`: every file of the set by name (`sitemap.xml`, …), as its bytes
   * would be on disk (gzipped when `gzip` is on), the manifest included when asked for.
   */
  memory?: Map<string, Uint8Array>;
}

async function sinkFor(o: ResolvedWriterOptions): Promise<Sink> {
  switch (o.output.kind) {
    case 'folder': {
      // Loaded only here, so that the writer's module graph needs no file system otherwise.
      const { FolderSink } = await import('./folder-sink.js');
      return new FolderSink(o.output.dir);
    }
    case 'memory':
      return new MemorySink();
    case 'streams':
      return new WebStreamSink(o.output.factory);
    case 'sink':
      return o.output.sink;
  }
}

/**
 * Writes sitemaps for every entry of `source` into `options.outDir` (atomically) or
 * `options.output`. Throws `ERR_INVALID_ENTRY` (under `onInvalid: 'fail'`, writing nothing) and
 * `ERR_NO_URLS` (zero entries: the previous set stays); both leave the previous output as it was.
 */
export async function writeSitemaps(
  source: EntrySource,
  options: WriteSitemapsOptions,
): Promise<WriteSitemapsResult> {
  const o = resolveWriterOptions(options);
  checkAbort(o.signal);
  const gzip = o.gzip === false ? undefined : await loadGzip(o.gzip.level);
  const sink = await sinkFor(o);
  const start = await sink.start();
  let run: Run | undefined;
  let done: Finished;
  try {
    run = new Run(o, sink, gzip);
    await consume(run, source);
    await run.release();
    judge(run);
    done = await finish(run, start);
  } catch (error) {
    run?.abortAll(error);
    await sink.abort(error);
    throw error;
  }
  return result(run, done);
}

function result(run: Run, done: Finished): WriteSitemapsResult {
  const o = run.o;
  const toWritten = (f: ManifestFile): WrittenFile => ({
    path: run.sink.locate(f.path),
    url: f.url ?? o.baseUrl + f.path,
    kind: f.kind,
    urls: f.urls ?? 0,
    bytes: f.bytes,
  });
  const written = done.files.map(toWritten);
  const rootFiles = done.roots.map((r) => written.find((w) => w.path === run.sink.locate(r))!);
  const out: WriteSitemapsResult = {
    entry: rootFiles[0]!,
    roots: rootFiles,
    files: written,
    html: done.extraFiles.filter((f) => f.kind === 'html').map(toWritten),
    urls: run.urls,
    skipped: run.findings.skipped,
    counts: { ...run.findings.counts },
    diagnostics: run.findings.diagnostics,
  };
  const feed = done.extraFiles.find((f) => f.kind === 'feed');
  if (feed !== undefined) out.feed = toWritten(feed);
  if (o.output.kind === 'memory') out.memory = (run.sink as MemorySink).files;
  return out;
}
