/**
 * `generate`'s inputs from what a site already has: its server logs (`--from-log`) and its
 * published sitemaps (`--from-sitemap`), with the flags that shape them. Kept apart from
 * `commands/generate.ts`, which only chains the sources this file builds.
 */
import { type Command, Option } from 'commander';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { isSitemapkitError } from '../core/errors.js';
import { HashedStringSet } from '../core/hash.js';
import { toUri } from '../core/url.js';
import { SITEMAP_TIMEOUT_MS } from '../parser/options.js';
import { type LogFileSummary, type LogLastmod, readAccessLogs } from '../sources/access-log.js';
import {
  type ExistingSitemaps,
  type ExistingSitemapsOptions,
  readSitemaps,
} from '../sources/existing-sitemaps.js';
import { LogFilter } from '../sources/log-filter.js';
import { compileLogFormat } from '../sources/log-format.js';
import { batchedSource, batchesOf } from '../writer/batches.js';
import type { CliContext } from './context.js';
import { UsageError } from './exit.js';
import {
  type AddressFlags,
  ALLOW_PRIVATE_HELP,
  addressPolicyOf,
  collect,
  durationFlag,
  parseHeaders,
  STRICT_ADDRESSES_HELP,
  seconds,
} from './flags.js';
import { listArg } from './input-flags.js';
import { checkInputFile, namingPath } from './paths.js';

export interface SourceFlags extends AddressFlags {
  fromLog?: string[];
  site?: string;
  logFormat?: string;
  logLastmod: LogLastmod;
  logIncludeExt?: string[];
  logExcludeExt?: string[];
  fromSitemap?: string[];
  timeout?: string;
  userAgent?: string;
  header: string[];
}

/** Adds the flags of `--from-log` and `--from-sitemap` to `generate`. */
export function addSourceOptions(command: Command): Command {
  return command
    .option(
      '--from-log <file...>',
      'list the pages a web server log shows it served (Apache/nginx, plain or gzip, - for stdin); needs --site',
    )
    .option('--site <url>', 'with --from-log: the site the log is of, e.g. https://example.com/')
    .option(
      '--log-format <format>',
      "with --from-log: common or combined (the default reads both), or the server's own LogFormat / log_format string",
    )
    .addOption(
      new Option(
        '--log-lastmod <source>',
        'with --from-log: lastmod from the latest request of each URL (last-hit: when it was last served, not changed) or the logged Last-Modified header',
      )
        .choices(['none', 'last-hit', 'last-modified'])
        .default('none'),
    )
    .option(
      '--log-include-ext <exts>',
      'with --from-log: keep these extensions after all, e.g. pdf (repeatable)',
      listArg,
    )
    .option(
      '--log-exclude-ext <exts>',
      'with --from-log: also leave out these extensions, e.g. php (repeatable)',
      listArg,
    )
    .option(
      '--from-sitemap <source...>',
      "take over a site's existing sitemaps: files or http(s) URLs of sitemaps, indexes (followed), text sitemaps or feeds",
    )
    .option(
      '--timeout <duration>',
      `with --from-sitemap: time allowed per request, body included (default ${seconds(SITEMAP_TIMEOUT_MS)})`,
    )
    .option('--user-agent <ua>', 'with --from-sitemap: User-Agent of every request')
    .option(
      '--header <name:value>',
      'with --from-sitemap: extra request header, sent to the origins of the sitemaps given only (repeatable)',
      collect,
      [],
    )
    .option('--allow-private-addresses', `with --from-sitemap: ${ALLOW_PRIVATE_HELP}`)
    .option('--strict-addresses', `with --from-sitemap: ${STRICT_ADDRESSES_HELP}`);
}

/** Whether the flags name an input of this file (so `generate` needs no input file). */
export function hasSourceFlags(flags: SourceFlags): boolean {
  return (flags.fromLog?.length ?? 0) > 0 || (flags.fromSitemap?.length ?? 0) > 0;
}

/** The library's ERR_OPTIONS in the flag's words. */
function asUsage<T>(flag: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (isSitemapkitError(error, 'ERR_OPTIONS'))
      throw new UsageError(
        `${flag}: ${error.message}${error.hint === undefined ? '' : `; ${error.hint.charAt(0).toLowerCase()}${error.hint.slice(1)}`}`,
      );
    throw error;
  }
}

type Source = () => AsyncIterable<unknown>;

/** The sources of the flags, checked before any is read, and what they have to say at the end. */
export interface ExtraSources {
  /**
   * The other inputs, then these sources: a URL an input file (or the site folder) lists is not
   * listed again by a log or an old sitemap, which would make it a duplicate record.
   */
  after(others: readonly Source[]): Source[];
  /** Text lines for the summary (logs read, sitemaps that failed). */
  lines(): string[];
  /** Whether a sitemap could not be read: the migration is partial (exit 1). */
  partial(): boolean;
  /** The fields of `--json`. */
  json(): { logs?: LogFileSummary[]; sitemaps?: ExistingSitemaps['result'] };
}

const LEFT_OUT_WORDS: Readonly<Record<string, string>> = {
  status: 'not answered 200 or 304',
  method: 'not GET',
  asset: 'assets and non-HTML',
  machinery: 'robots.txt, favicon and such',
  'other-host': 'for another host',
  'outside-site': 'outside --site',
  'not-a-url': 'no usable URL',
};

function leftOutText(s: LogFileSummary): string {
  const parts = Object.entries(s.leftOut)
    .filter(([, n]) => n > 0)
    .map(([why, n]) => `${n.toLocaleString('en-US')} ${LEFT_OUT_WORDS[why] ?? why}`);
  if (s.unreadable > 0) parts.push(`${s.unreadable.toLocaleString('en-US')} unreadable`);
  return parts.length === 0 ? '' : `; left out: ${parts.join(', ')}`;
}

/** Builds the sources of `--from-log` and `--from-sitemap` (usage errors before any reading). */
export async function extraSources(
  flags: SourceFlags,
  ctx: CliContext,
  onDiagnostic: DiagnosticHandler,
  inputs: readonly string[] = [],
): Promise<ExtraSources> {
  const sources: Source[] = [];
  // One set for the logs, the old sitemaps and the URLs of the other inputs (see `after`).
  const seen = new HashedStringSet();
  const logs: LogFileSummary[] = [];
  let sitemaps: ExistingSitemaps | undefined;
  const logFlags = [flags.site, flags.logFormat, flags.logIncludeExt, flags.logExcludeExt];
  const fromLog = flags.fromLog ?? [];
  if (fromLog.length === 0 && (logFlags.some((f) => f !== undefined) || flags.logLastmod !== 'none'))
    throw new UsageError('--site, --log-format, --log-lastmod and --log-…-ext go with --from-log FILE');
  if (fromLog.length > 0) {
    if (flags.site === undefined)
      throw new UsageError(
        '--from-log needs --site URL, the site the log is of (its paths are made absolute against it), such as --site https://example.com/',
      );
    const site = flags.site;
    asUsage('--site', () => new LogFilter({ site }));
    if (flags.logFormat !== undefined) {
      const format = flags.logFormat;
      asUsage('--log-format', () => compileLogFormat(format));
    }
    if (fromLog.filter((f) => f === '-').length + (inputs.includes('-') ? 1 : 0) > 1)
      throw new UsageError(
        'standard input (-) can be read once: as an input file or as one log of --from-log, not twice',
      );
    for (const file of fromLog)
      if (file !== '-')
        await checkInputFile(
          file,
          'read the log',
          'give the log files inside it, such as /var/log/nginx/access.log*',
        );
    const source = asUsage('--from-log', () =>
      readAccessLogs(fromLog, {
        site,
        ...(flags.logFormat !== undefined && { format: flags.logFormat }),
        lastmod: flags.logLastmod,
        includeExtensions: flags.logIncludeExt,
        excludeExtensions: flags.logExcludeExt,
        stdin: ctx.stdin,
        seen,
        onDiagnostic,
        onFile: (s) => logs.push(s),
      }),
    );
    sources.push(() =>
      namingPath(source, fromLog.length === 1 ? fromLog[0]! : fromLog.join(', '), 'read the log'),
    );
  }
  const roots = flags.fromSitemap ?? [];
  if (
    roots.length === 0 &&
    (flags.timeout !== undefined || flags.userAgent !== undefined || flags.header.length > 0)
  )
    throw new UsageError('--timeout, --user-agent and --header go with --from-sitemap SOURCE');
  if (roots.length > 0) {
    const timeoutMs = durationFlag('--timeout', flags.timeout, 'ms', 1);
    const addressPolicy = addressPolicyOf(flags);
    const options: ExistingSitemapsOptions = {
      seen,
      onDiagnostic,
      headers: parseHeaders(flags.header),
      signal: ctx.signal,
      ...(addressPolicy !== undefined && { addressPolicy }),
      ...(timeoutMs !== undefined && { timeoutMs }),
      ...(flags.userAgent !== undefined && { userAgent: flags.userAgent }),
    };
    if (roots.includes('-'))
      throw new UsageError(
        '--from-sitemap reads sitemap files and http(s) URLs, not standard input: save the sitemap to a file and give its path',
      );
    for (const root of roots)
      if (!/^https?:\/\//i.test(root))
        await checkInputFile(root, 'read the sitemap', 'give the sitemap files inside it, or their URLs');
    const read = readSitemaps(roots, options);
    sitemaps = read;
    // Before the logs: an old sitemap's entry carries fields (lastmod, images…) a log cannot.
    sources.unshift(() =>
      namingPath(read, roots.length === 1 ? roots[0]! : roots.join(', '), 'read the sitemap'),
    );
  }
  return {
    after: (others) =>
      sources.length === 0 ? [...others] : [...others.map((o) => () => noting(o(), seen)), ...sources],
    lines: () => [
      ...logs.map(
        (s) =>
          `  log ${s.file}${s.gzip ? ' (gzip)' : ''}: ${s.lines.toLocaleString('en-US')} lines, ${s.kept.toLocaleString('en-US')} page visits, ${s.urls.toLocaleString('en-US')} new URLs${leftOutText(s)}`,
      ),
      ...(sitemaps === undefined
        ? []
        : [
            `  existing sitemaps: ${sitemaps.result.sitemaps.toLocaleString('en-US')} read, ${sitemaps.result.entries.toLocaleString('en-US')} URLs${sitemaps.result.errors > 0 ? `; ${sitemaps.result.errors} error${sitemaps.result.errors === 1 ? '' : 's'} (see above): the migration is partial` : ''}`,
          ]),
    ],
    partial: () => (sitemaps?.result.errors ?? 0) > 0,
    json: () => ({
      ...(logs.length > 0 && { logs }),
      ...(sitemaps !== undefined && { sitemaps: sitemaps.result }),
    }),
  };
}

/** Notes the URL of each record of another input in `seen` as it passes (batches kept). */
function noting(source: AsyncIterable<unknown>, seen: HashedStringSet): AsyncIterable<unknown> {
  const note = (item: unknown): void => {
    const loc = typeof item === 'object' && item !== null ? (item as { loc?: unknown }).loc : undefined;
    if (typeof loc !== 'string') return;
    const r = toUri(loc);
    if (r.ok) seen.add(r.url);
  };
  return batchedSource(async function* () {
    const batches = batchesOf<unknown>(source);
    if (batches === undefined) {
      for await (const item of source) {
        note(item);
        yield { items: [item] };
      }
      return;
    }
    for await (const batch of batches) {
      for (const item of batch.items) note(item);
      yield batch;
    }
  });
}
