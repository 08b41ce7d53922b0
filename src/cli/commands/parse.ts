import { type Command, Option } from 'commander';
import { type Diagnostic, formatDiagnostic } from '../../core/diagnostics.js';
import { isSitemapkitError } from '../../core/errors.js';
import { fsError } from '../../core/fs-errors.js';
import { SITEMAP_TIMEOUT_MS } from '../../parser/options.js';
import { parseSitemap } from '../../parser/parse-sitemap.js';
import { isPlainBatch, itemBatches } from '../../parser/run.js';
import { isHttpUrl } from '../../parser/source.js';
import type {
  ParseOptions,
  SitemapInfo,
  SitemapItem,
  SitemapParse,
  SitemapSource,
  TreeOptions,
} from '../../parser/types.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import {
  type AddressFlags,
  ALLOW_PRIVATE_HELP,
  addressPolicyOf,
  collect,
  durationFlag,
  parseHeaders,
  STRICT_ADDRESSES_HELP,
  seconds,
  wholeNumber,
} from '../flags.js';
import { writeOut } from '../io.js';
import { entryLine, jsonLine } from '../json-line.js';
import { checkSitemapFile, isLocalPath } from '../paths.js';
import { Progress } from '../progress.js';

type Format = 'jsonl' | 'csv' | 'txt';

interface ParseFlags extends AddressFlags {
  recursive?: boolean;
  discover?: boolean;
  sitemapUrl?: string;
  format: Format;
  json?: boolean;
  stats?: boolean;
  maxBytes?: string;
  header: string[];
  userAgent?: string;
  timeout?: string;
  rawUrls?: boolean;
  concurrency?: string;
  threads?: string;
}

/** An item as the tree yields it (with `sitemap`) or as parseSitemap does (without). */
type Row = SitemapItem & { sitemap?: string };

const CSV_COLUMNS = [
  'loc',
  'lastmod',
  'changefreq',
  'priority',
  'images',
  'videos',
  'news',
  'alternates',
  'mobile',
  'kind',
  'sitemap',
];

function csvField(v: string | number | undefined): string {
  if (v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

let lastName = '';
let lastQuoted = '""';
/** `JSON.stringify(name)`, remembered: every row of a sitemap carries the same name. */
function quoted(name: string): string {
  if (name !== lastName) {
    lastName = name;
    lastQuoted = JSON.stringify(name);
  }
  return lastQuoted;
}

/**
 * One output line for `row` in `format` (with its newline); `sitemap` names its source unless the
 * row does. `plain`: the row is in a batch of plain page entries (`isPlainBatch`).
 */
export function formatRow(row: Row, sitemap: string, format: Format, plain = false): string {
  if (format === 'txt') return `${row.loc}\n`;
  const from = row.sitemap ?? sitemap;
  // The entry model plus "sitemap" as the last key, without copying the entry; a page entry of
  // one sitemap (the parser's own shape) without walking its keys.
  if (format === 'jsonl')
    return row.sitemap === undefined && !('kind' in row)
      ? entryLine(row, quoted(from), plain)
      : jsonLine(row, quoted(from));
  if ('kind' in row)
    return `${[csvField(row.loc), csvField(row.lastmod), '', '', '', '', '', '', '', 'sitemap', csvField(from)].join(',')}\n`;
  return `${[
    csvField(row.loc),
    csvField(row.lastmod),
    csvField(row.changefreq),
    csvField(row.priority),
    csvField(row.images?.length),
    csvField(row.videos?.length),
    csvField(row.news?.title),
    csvField(row.alternates?.length),
    row.mobile === true ? 'yes' : '',
    'page',
    csvField(from),
  ].join(',')}\n`;
}

/** Counts for `--stats`. */
class Stats {
  readonly sitemaps: SitemapInfo[] = [];
  readonly lastmod = new Map<string, number>();
  pages = 0;
  references = 0;

  add(item: SitemapItem): void {
    if ('kind' in item) {
      this.references++;
      return;
    }
    this.pages++;
    const year = item.lastmod === undefined ? 'none' : item.lastmod.slice(0, 4);
    this.lastmod.set(year, (this.lastmod.get(year) ?? 0) + 1);
  }

  formats(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.sitemaps) {
      const f = s.format ?? 'unreadable';
      out[f] = (out[f] ?? 0) + 1;
    }
    return out;
  }

  histogram(): Array<[string, number]> {
    return [...this.lastmod].sort(([a], [b]) => (a === 'none' ? 1 : b === 'none' ? -1 : a.localeCompare(b)));
  }

  json(errors: number): string {
    return `${JSON.stringify({
      sitemaps: this.sitemaps,
      formats: this.formats(),
      entries: this.pages,
      references: this.references,
      lastmodByYear: Object.fromEntries(this.histogram()),
      errors,
    })}\n`;
  }

  text(errors: number): string {
    const lines: string[] = [];
    const width = Math.min(70, Math.max(7, ...this.sitemaps.map((s) => s.sitemap.length)));
    lines.push(
      `${'sitemap'.padEnd(width)}  format        entries  children        bytes  gzip  errors  warnings`,
    );
    for (const s of this.sitemaps) {
      const name = s.sitemap.length > width ? `...${s.sitemap.slice(-(width - 3))}` : s.sitemap.padEnd(width);
      lines.push(
        `${name}  ${(s.format ?? 'unreadable').padEnd(12)}  ${String(s.entries).padStart(7)}  ${String(s.sitemaps).padStart(8)}  ${String(s.bytes).padStart(11)}  ${(s.gzip ? 'yes' : 'no').padEnd(4)}  ${String(s.errors).padStart(6)}  ${String(s.warnings).padStart(8)}`,
      );
    }
    lines.push('');
    const formats = Object.entries(this.formats()).map(([f, n]) => `${f} ${n}`);
    lines.push(
      `${this.sitemaps.length} sitemap(s): ${formats.join(', ') || 'none'}; ${this.pages} entries, ${this.references} index children not followed; ${errors} error(s)`,
    );
    const hist = this.histogram();
    if (hist.length > 0) {
      lines.push('', 'lastmod by year:');
      const max = Math.max(...hist.map(([, n]) => n));
      for (const [year, n] of hist)
        lines.push(
          `  ${year.padEnd(4)}  ${String(n).padStart(9)}  ${'#'.repeat(Math.max(1, Math.round((n / max) * 40)))}`,
        );
    }
    return `${lines.join('\n')}\n`;
  }
}

export function registerParse(program: Command, ctx: CliContext): void {
  program
    .command('parse')
    .description('Read sitemaps (urlset, index, gzip, text, RSS, Atom) and print their URLs')
    .argument(
      '<source>',
      'sitemap file, - for standard input, an http(s) URL, or a site root with --discover',
    )
    .option(
      '-r, --recursive',
      'follow sitemap indexes, fetching their children over http(s) (the default for an http(s) SOURCE and --discover)',
    )
    .option('--no-recursive', 'read SOURCE alone: an index gives its children as {"kind":"sitemap",…} rows')
    .option(
      '--discover',
      'SOURCE is a site: find its sitemaps in robots.txt and at well-known paths, and read them as trees',
    )
    .option('--sitemap-url <url>', 'public URL of a local sitemap file: applies the location rule')
    .addOption(
      new Option('--format <format>', 'output format for entries')
        .choices(['jsonl', 'csv', 'txt'])
        .default('jsonl'),
    )
    .option('--json', 'short for --format jsonl (with --stats: the statistics as JSON)')
    .option(
      '--raw-urls',
      'print each loc exactly as written (entities decoded, blanks trimmed) instead of its normal form',
    )
    .option('--stats', 'print counts per sitemap and format and a lastmod histogram instead of the entries')
    .option(
      '--max-bytes <n>',
      'bytes read per sitemap, uncompressed and downloaded (default 52428800, 50 MiB)',
    )
    .option(
      '--header <name:value>',
      'extra request header, sent to the origin of SOURCE only (repeatable)',
      collect,
      [],
    )
    .option('--user-agent <ua>', 'User-Agent of every request')
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .option(
      '--concurrency <n>',
      'sitemaps of a tree in flight at once, the next ones read ahead of their turn; the output keeps the order of reading them one by one (default 4)',
    )
    .option(
      '--threads <n>',
      'worker threads that read the children of an index, this thread reading one in N+1 (default 0: all in this thread; on two cores try 1, see docs/performance.md)',
    )
    .option(
      '--timeout <duration>',
      `time allowed per request, body included, such as 30s or 500ms; a bare number is milliseconds (default ${seconds(SITEMAP_TIMEOUT_MS)})`,
    )
    .addHelpText(
      'after',
      `
Output: entries on stdout, one a line. jsonl lines are the entry model (loc, lastmod, changefreq,
priority, images, videos, news, alternates, mobile) plus "sitemap", the file or URL they came from;
index children that are not followed (--no-recursive, or a local file or standard input without -r)
are {"kind":"sitemap","loc",...}.
Diagnostics go to stderr as FILE:LINE:COL: severity code: message.

Examples:
  sitemapkit parse https://www.example.com/sitemap_index.xml --format txt   (every URL of the tree)
  sitemapkit parse https://www.example.com --discover --stats
  sitemapkit parse ./sitemap.xml.gz --sitemap-url https://www.example.com/sitemap.xml.gz
  curl -s https://www.example.com/sitemap.xml | sitemapkit parse - --format csv

Exit codes: 0 everything parsed (warnings allowed); 1 an error diagnostic occurred (what could be
read is still printed); 2 usage error, or SOURCE could not be opened or fetched at all.`,
    )
    .action(async (source: string, flags: ParseFlags) => {
      const format: Format = flags.json === true ? 'jsonl' : flags.format;
      const maxBytes = wholeNumber('--max-bytes', flags.maxBytes);
      const timeoutMs = durationFlag('--timeout', flags.timeout, 'ms', 1);
      const concurrency = wholeNumber('--concurrency', flags.concurrency, 1);
      const threads = wholeNumber('--threads', flags.threads, 0, 256);
      const isUrl = isHttpUrl(source);
      if (flags.sitemapUrl !== undefined) {
        if (isUrl || flags.discover)
          throw new UsageError('--sitemap-url is for a local file; a fetched sitemap has its own URL');
        if (!/^https?:\/\/[^/]/i.test(flags.sitemapUrl))
          throw new UsageError(`--sitemap-url needs an http(s) URL, not "${flags.sitemapUrl}"`);
      }
      if (flags.discover && !isUrl)
        throw new UsageError('--discover needs the http(s) URL of a site, such as https://www.example.com/');
      if (flags.recursive === true && source === '-')
        throw new UsageError('--recursive needs a file or URL, not standard input');
      // A fetched index's children are what a person means to read; a local file's children would
      // be fetched from the live site, so they are followed only when -r asks for it.
      const recursive = flags.recursive ?? (isUrl || flags.discover === true);
      if ((concurrency !== undefined || threads !== undefined) && !recursive)
        throw new UsageError(
          '--concurrency and --threads are for a tree: give an http(s) URL, --discover or -r',
        );

      const stats = flags.stats ? new Stats() : undefined;
      const progress = new Progress('parsing', { stream: ctx.stderr as NodeJS.WriteStream });
      const onDiagnostic = (d: Diagnostic): void => {
        progress.stop();
        ctx.stderr.write(`${formatDiagnostic(d)}\n`);
      };
      const addressPolicy = addressPolicyOf(flags);
      const options: ParseOptions = {
        onDiagnostic,
        headers: parseHeaders(flags.header),
        ...(addressPolicy === undefined ? {} : { addressPolicy }),
        signal: ctx.signal,
        ...(stats === undefined ? {} : { onSitemap: (info: SitemapInfo) => stats.sitemaps.push(info) }),
        ...(flags.sitemapUrl === undefined ? {} : { sitemapUrl: flags.sitemapUrl }),
        ...(maxBytes === undefined ? {} : { maxBytes, maxDownloadBytes: maxBytes }),
        ...(flags.userAgent === undefined ? {} : { userAgent: flags.userAgent }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        ...(flags.rawUrls === true ? { rawUrls: true } : {}),
      };
      if (!isUrl && isLocalPath(source)) await checkSitemapFile(source);

      let out = '';
      let count = 0;
      let errors = 0;
      // Batched writes: one await per 64 KiB rather than per line, and backpressure honoured.
      const flushFull = async (): Promise<void> => {
        if (out.length < 65_536) return;
        const chunk = out;
        out = '';
        await writeOut(ctx.stdout, chunk);
      };
      const drain = async (result: SitemapParse<Row>, name: string): Promise<void> => {
        // The parser's batches (a chunk's items each), so that an item costs no await of its own.
        for await (const batch of itemBatches(result)) {
          const plain = isPlainBatch(batch);
          for (const item of batch) {
            if (stats !== undefined) stats.add(item);
            else out += formatRow(item, name, format, plain);
          }
          count += batch.length;
          progress.update(count);
          await flushFull();
        }
        errors += result.errorCount;
      };

      if (format === 'csv' && stats === undefined) out += `${CSV_COLUMNS.join(',')}\n`;
      let roots: string[] = [source];
      if (flags.discover) {
        // Discovery and trees are loaded only when asked for: a local file needs neither (start-up).
        const { discoverSitemaps } = await import('../../parser/discover.js');
        const found = await discoverSitemaps(source, options);
        for (const s of found) ctx.stderr.write(`found ${s.url} (${s.source})\n`);
        if (found.length === 0) errors++;
        roots = found.map((s) => s.url);
      }
      if (recursive && roots.length > 0) {
        const [{ parseSitemapTree, parseSitemapTreeLines }, { TREE_JSON_LINES }] = await Promise.all([
          import('../../parser/tree.js'),
          import('../tree-lines.js'),
        ]);
        const tree: TreeOptions = { ...options };
        if (concurrency !== undefined) tree.concurrency = concurrency;
        if (threads !== undefined) tree.threads = threads;
        if (format === 'jsonl' && stats === undefined) {
          // The lines are written where each sitemap is read (a parse worker, or here): the same
          // bytes as formatRow's, without an entry crossing between threads.
          const result = parseSitemapTreeLines(roots, tree, TREE_JSON_LINES);
          for await (const batch of itemBatches(result)) {
            for (const lines of batch) {
              count += lines.count;
              if ('text' in lines) {
                out += lines.text;
                continue;
              }
              // A worker's lines, already UTF-8: written as they are, after the text before them.
              if (out !== '') await writeOut(ctx.stdout, out);
              out = '';
              await writeOut(ctx.stdout, lines.bytes);
            }
            progress.update(count);
            await flushFull();
          }
          errors += result.errorCount;
        } else await drain(parseSitemapTree(roots, tree), source);
      } else {
        for (const root of roots) {
          const input: SitemapSource = root === '-' ? ctx.stdin : root;
          try {
            await drain(parseSitemap(input, options), root === '-' ? '<stdin>' : root);
          } catch (error) {
            // Several discovered sitemaps: one that cannot be fetched is a finding, not the end.
            if (!flags.discover || !isSitemapkitError(error, 'ERR_HTTP'))
              throw fsError(error, { path: root, doing: 'read the sitemap' });
            const { openFailure } = await import('../../parser/tree.js');
            onDiagnostic(openFailure(error, root));
            errors++;
          }
        }
      }
      progress.stop();
      if (stats !== undefined) out += flags.json === true ? stats.json(errors) : stats.text(errors);
      if (out !== '') await writeOut(ctx.stdout, out);
      ctx.exitCode = errors > 0 ? EXIT_FINDINGS : EXIT_OK;
    });
}
