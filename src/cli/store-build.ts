/**
 * `generate … --store FILE`: the inputs (the whole set) synchronised into the site store and the
 * build published as one unit, or, without inputs, a build from the store alone; then a summary
 * and, with `--changes`, the change set. The publish gate's refusal exits 1 (like findings).
 */
import { lstat } from 'node:fs/promises';
import type { Diagnostic } from '../core/diagnostics.js';
import { isSitemapkitError } from '../core/errors.js';
import { redactDatabaseUrl } from '../sources/sql-db.js';
import type { BuildResult, ImportCounts } from '../store/store.js';
import { openStore } from '../store/store.js';
import { chainSources } from '../writer/batches.js';
import type { CliContext } from './context.js';
import type { DiagnosticReport } from './diagnostic-report.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from './exit.js';
import { extrasWriterOptions } from './extras-flags.js';
import type { Progress } from './progress.js';
import { cliWords } from './words.js';

export interface StoreBuildFlags {
  store: string;
  changes?: string;
  maxDrop?: string;
  force?: boolean;
  baseUrl?: string;
  out: string;
  gzip?: boolean;
  format?: 'xml' | 'txt';
  maxUrls?: number;
  maxBytes?: number;
  xsl?: boolean | string;
  html?: boolean;
  updateRobots?: string;
  onInvalid: 'fail' | 'skip' | 'drop-field';
  allowHost: string[];
  legacy?: boolean;
  json?: boolean;
  feed?: 'atom' | 'rss';
  feedSize?: number;
  feedTitle?: string;
  newsWindow?: string;
  lastmodPolicy?: 'keep' | 'warn' | 'drop';
}

/** The store as a message names it: a database URL without its password; a file as `show` writes paths. */
export function storeName(store: string, show: (path: string) => string = (p) => p): string {
  return /^postgres(?:ql)?:\/\//i.test(store) ? redactDatabaseUrl(store) : show(store);
}

/**
 * Refuses an SQLite store file that is not there, before opening it would make an empty one: for
 * the commands that cannot fill a new store. A PostgreSQL store is checked by opening it.
 */
export async function requireStore(store: string, what: string): Promise<void> {
  if (/^postgres(?:ql)?:\/\//i.test(store)) return;
  const there = await lstat(store).then(
    () => true,
    () => false,
  );
  if (!there) throw new UsageError(`there is no site store at ${store}: ${what}`);
}

/** `--max-drop 10%` or `--max-drop 500`: checked when the flag is read. */
export function maxDropArg(raw: string): string {
  const s = raw.trim();
  if (/^\d+(?:\.\d+)?%$/.test(s) && Number(s.slice(0, -1)) <= 100) return s;
  if (/^\d+$/.test(s)) return s;
  throw new UsageError(`--max-drop needs a share such as 10% or a count such as 500, not "${raw}"`);
}

/** One summary line for a build. */
export function buildSummary(r: BuildResult, out: string, secs: number): string {
  const by = (c: string): number => r.files.filter((f) => f.change === c).length;
  const plural = (n: number, w: string): string => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`;
  return [
    `Published ${plural(r.urls, 'URL')} in ${plural(r.files.length, 'file')} to ${out} in ${secs.toFixed(1)} s`,
    `  URLs: ${r.added.toLocaleString('en-US')} added, ${r.changed.toLocaleString('en-US')} changed, ${r.removed.toLocaleString('en-US')} removed`,
    `  files: ${by('added')} added, ${by('rewritten')} rewritten, ${by('kept')} kept, ${r.deleted.length} deleted`,
    `  entry point: ${r.entry}`,
    ...(r.newsDropped === 0
      ? []
      : [
          `  news window: ${plural(r.newsDropped, 'news block')} past the window dropped from the files written (the URLs stay)`,
        ]),
    ...(r.feed === undefined
      ? []
      : [`  delta feed: ${r.feed.path} (${plural(r.feed.urls, 'URL')}, ${r.feed.change})`]),
  ].join('\n');
}

export async function runStoreGenerate(
  sources: Array<() => AsyncIterable<unknown>>,
  flags: StoreBuildFlags,
  ctx: CliContext,
  report: DiagnosticReport,
  progress: Progress,
): Promise<number> {
  if (flags.html === true)
    throw new UsageError('--html cannot be used with --store (the HTML site map is built from a whole run)');
  // The same checks and wording as generate's (--feed-size without --feed, an empty --feed-title).
  const { feed, newsWindow } = extrasWriterOptions({
    ...flags,
    lastmodPolicy: flags.lastmodPolicy ?? 'warn',
  });
  if (sources.length === 0)
    await requireStore(
      flags.store,
      'give the URLs as inputs (generate INPUT --store), or import them first (sitemapkit store import)',
    );
  const store = await openStore(flags.store, {
    ...(flags.baseUrl !== undefined && { baseUrl: flags.baseUrl }),
    ...(flags.format !== undefined && { format: flags.format }),
    ...(flags.maxUrls !== undefined && { maxUrlsPerFile: flags.maxUrls }),
    ...(flags.maxBytes !== undefined && { maxBytesPerFile: flags.maxBytes }),
  });
  const started = Date.now();
  const build = {
    outDir: flags.out,
    gzip: flags.gzip === true,
    ...(flags.xsl !== undefined && { xsl: flags.xsl }),
    ...(flags.updateRobots !== undefined && { updateRobots: flags.updateRobots }),
    ...(flags.maxDrop !== undefined && { maxDrop: flags.maxDrop }),
    force: flags.force === true,
    ...(flags.changes !== undefined && { changes: flags.changes }),
    ...(feed !== undefined && { feed }),
    ...(newsWindow !== undefined && { newsWindow }),
    lastmodPolicy: flags.lastmodPolicy ?? 'warn',
    onDiagnostic: (d: Diagnostic) => report.add(d),
  };
  let result: BuildResult & { import?: ImportCounts };
  try {
    result =
      sources.length === 0
        ? await store.build(build)
        : await store.syncAndBuild(chainSources(sources.map((s) => s())), {
            ...build,
            onInvalid: flags.onInvalid,
            allowHosts: flags.allowHost,
            legacy: flags.legacy === true,
            onProgress: (n: number) => progress.update(n),
            signal: ctx.signal,
          });
  } catch (error) {
    progress.stop();
    report.finish();
    const findings =
      isSitemapkitError(error) &&
      (error.code === 'ERR_INVALID_ENTRY' || error.code === 'ERR_NO_URLS' || error.code === 'ERR_GATE');
    if (findings && flags.json) {
      const { code, message, where, hint } = error;
      ctx.stdout.write(
        `${JSON.stringify({ ok: false, code, message, where, hint, ...report.json() }, null, 2)}\n`,
      );
      return EXIT_FINDINGS;
    }
    if (findings) {
      const where = error.where ? `${error.where}: ` : '';
      ctx.stderr.write(
        `sitemapkit: ${where}${cliWords(error.message)} [${error.code}]${error.hint ? `\n  ${cliWords(error.hint)}` : ''}\n`,
      );
      return EXIT_FINDINGS;
    }
    throw error;
  } finally {
    await store.close();
  }
  progress.stop();
  report.finish();
  const secs = (Date.now() - started) / 1000;
  const skipped = result.import?.skipped ?? 0;
  if (flags.json) {
    ctx.stdout.write(
      `${JSON.stringify({ ok: skipped === 0, seconds: secs, ...result, ...report.json() }, null, 2)}\n`,
    );
  } else {
    let text = buildSummary(result, flags.out, secs);
    if (flags.changes !== undefined) text += `\n  change set: ${flags.changes}`;
    if (skipped > 0)
      text += `\n  ${skipped.toLocaleString('en-US')} invalid or duplicate record${skipped === 1 ? '' : 's'} skipped (see above)`;
    ctx.stdout.write(`${text}\n`);
  }
  return skipped > 0 ? EXIT_FINDINGS : EXIT_OK;
}
