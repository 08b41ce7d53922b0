/**
 * Web server access logs as a writer input (`generate --from-log`): the pages a site served, read
 * from Apache or nginx logs, plain or gzip (rotated `access.log.2.gz`), one record per distinct
 * URL. What Google's own Sitemap Generator did from server logs.
 *
 * Memory stays flat in the lines read: each URL is remembered as a hash (about 8 bytes, the
 * writer's duplicate set). Only `lastmod: 'last-hit' | 'last-modified'` holds the URLs themselves,
 * since a URL's last hit is known only at the end of the logs.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { HashedStringSet } from '../core/hash.js';
import { type BatchedSource, batchedSource, type RecordBatch } from '../writer/batches.js';
import { logBytes } from './log-bytes.js';
import { type LeftOut, LogFilter, type LogFilterOptions } from './log-filter.js';
import { compileLogFormat, type LogFormat, type LogLine, logTime } from './log-format.js';
import type { SeenUrls, SourceRecord } from './record.js';

/** What a log line can tell about a page's `lastmod`; nothing unless asked (see docs/inputs.md). */
export type LogLastmod = 'none' | 'last-hit' | 'last-modified';

/** A log to read: a path (`-` for standard input), or bytes with the name messages give them. */
export type LogInput = string | { name: string; bytes: AsyncIterable<Uint8Array> };

/** What one log gave, for a summary line. */
export interface LogFileSummary {
  /** The path, or `<stdin>`. */
  file: string;
  gzip: boolean;
  lines: number;
  /** Lines not in the format (each of the first ten is also a `log-line-unreadable` warning). */
  unreadable: number;
  /** Page visits kept (before duplicates are merged). */
  kept: number;
  /** URLs first seen in this log. */
  urls: number;
  /** Lines left out, by reason. */
  leftOut: Record<LeftOut, number>;
}

export interface AccessLogOptions extends LogFilterOptions {
  /**
   * `common` or `combined` (either reads both, and lines with more fields after them), an Apache
   * `LogFormat` string (`%h %l %u %t "%r" %>s %b`) or an nginx `log_format` string (`$remote_addr
   * - $remote_user [$time_local] "$request" $status`). @default 'combined'
   */
  format?: string | undefined;
  /**
   * `none`: no lastmod. `last-hit`: the time of the URL's latest kept request (when it was last
   * seen live, which is not when it changed). `last-modified`: the newest `Last-Modified` header
   * the server sent for it, when the format logs one (`%{Last-Modified}o`,
   * `$sent_http_last_modified`). Either of the last two keeps every URL until the logs end.
   * @default 'none'
   */
  lastmod?: LogLastmod | undefined;
  /** Standard input, for the input `-`. */
  stdin?: NodeJS.ReadableStream | undefined;
  /** Receives `log-line-unreadable` warnings (the first ten lines of each log, then a count). */
  onDiagnostic?: DiagnosticHandler | undefined;
  /**
   * URLs other inputs listed before this one (in their normal form): not yielded again. The URLs
   * this source yields are added to it. @default a set of this source's own
   */
  seen?: SeenUrls | undefined;
  /** Receives each log's summary once it is read. */
  onFile?: ((summary: LogFileSummary) => void) | undefined;
}

/** Unreadable lines reported one by one per log; the rest are counted. */
const WARNED_LINES = 10;
/** A log whose first this many lines all fail is in another format: stop rather than read on. */
const PROBE_LINES = 100;
/** Characters of a line kept, at most (plus one read chunk). */
const MAX_LINE = 65_536;
const STATUS = /^[1-5]\d\d$/;

interface Resolved {
  filter: LogFilter;
  format: LogFormat;
  lastmod: LogLastmod;
  options: AccessLogOptions;
}

function resolve(options: AccessLogOptions): Resolved {
  const format = compileLogFormat(options.format ?? 'combined');
  const lastmod = options.lastmod ?? 'none';
  if (lastmod !== 'none' && lastmod !== 'last-hit' && lastmod !== 'last-modified')
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `lastmod must be none, last-hit or last-modified, not "${String(lastmod)}"`,
    );
  if (lastmod === 'last-modified' && !format.hasLastModified)
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `the log format ${format.name} does not log the Last-Modified header, so it cannot give a lastmod`,
      {
        hint: 'Add %{Last-Modified}o (Apache) or $sent_http_last_modified (nginx) to the log format, or use last-hit or none.',
      },
    );
  // The default reads combined lines and common ones alike: its fields after %b are not needed.
  const reading = options.format === undefined ? compileLogFormat('common') : format;
  return { filter: new LogFilter(options), format: reading, lastmod, options };
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}

/** Lines of a byte stream, an array a chunk; UTF-8, with bad bytes as U+FFFD (a log is no input file). */
async function* lineChunks(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  for await (const chunk of bytes) {
    const text = carry + decoder.write(chunk as Buffer);
    const lines = text.split('\n');
    carry = lines.pop()!;
    // A line longer than any log line (a file with no line breaks) is cut, so memory stays bounded;
    // its start, where the fields are, is still read.
    if (carry.length > MAX_LINE) carry = carry.slice(0, MAX_LINE);
    if (lines.length > 0) yield lines;
  }
  const rest = carry + decoder.end();
  if (rest !== '') yield [rest];
}

/** One run over the logs: the duplicate set (or the last-hit map) spans every file. */
class LogRun {
  readonly seen: SeenUrls;
  /** Requests (with their host) that gave a kept URL. */
  readonly requests = new HashedStringSet();
  readonly times = new Map<string, number>();
  readonly #r: Resolved;

  constructor(r: Resolved) {
    this.#r = r;
    this.seen = r.options.seen ?? new HashedStringSet();
  }

  async *file(input: LogInput): AsyncGenerator<RecordBatch<SourceRecord>> {
    const { format, filter, lastmod, options } = this.#r;
    const where = typeof input === 'string' ? (input === '-' ? '<stdin>' : input) : input.name;
    const opened = await logBytes(
      typeof input === 'string' ? openInput(input, options.stdin) : input.bytes,
      where,
    );
    const leftOut: Record<LeftOut, number> = {
      status: 0,
      method: 0,
      asset: 0,
      machinery: 0,
      'other-host': 0,
      'outside-site': 0,
      'not-a-url': 0,
    };
    const s: LogFileSummary = {
      file: where,
      gzip: opened.gzip,
      lines: 0,
      unreadable: 0,
      kept: 0,
      urls: 0,
      leftOut,
    };
    let parsed = 0;
    let lineNo = 0;
    // Consecutive lines mostly share their second: the time is read once per change.
    let lastTimeText = '';
    let lastTime: number | undefined;
    const refuse = (): SitemapkitError =>
      new SitemapkitError(
        'ERR_INPUT',
        `no line${parsed === 0 && s.lines >= PROBE_LINES ? ` of the first ${PROBE_LINES}` : ''} is in the ${format.name === 'common' ? 'common or combined' : `"${format.name}"`} log format`,
        {
          where,
          hint: 'Give the format the server writes with --log-format (the library: format), such as its Apache LogFormat or nginx log_format string.',
        },
      );
    for await (const lines of lineChunks(opened.bytes)) {
      const items: SourceRecord[] = [];
      const at: number[] = [];
      for (let i = 0; i < lines.length; i++) {
        lineNo++;
        let line = lines[i]!;
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (line === '') continue;
        s.lines++;
        const f = format.read(line);
        // A line fits when its status is three digits and its time reads as one: a line of another
        // format that happens to split into the fields (an error log) is not taken for a visit.
        let time: number | undefined;
        if (f !== undefined && f.time !== undefined) {
          if (f.time === lastTimeText) time = lastTime;
          else {
            time = logTime(f.time, format.timeKind);
            lastTimeText = f.time;
            lastTime = time;
          }
        }
        if (f === undefined || time === undefined || !STATUS.test(f.status ?? '')) {
          s.unreadable++;
          if (s.unreadable <= WARNED_LINES)
            options.onDiagnostic?.({
              code: 'log-line-unreadable',
              severity: 'warning',
              message: `the line is not in the ${format.name === 'common' ? 'common or combined' : `"${format.name}"`} log format, left out: ${clip(line)}`,
              sitemap: where,
              line: lineNo,
            });
          if (parsed === 0 && s.lines >= PROBE_LINES) throw refuse();
          continue;
        }
        parsed++;
        // A request already kept (same target, same host) gives the same URL again: most visits
        // of a busy log are repeats, which this skips before any URL is parsed.
        const request =
          lastmod === 'none' && (f.status === '200' || f.status === '304') ? requestKey(f) : undefined;
        if (request !== undefined && this.requests.has(request)) {
          s.kept++;
          continue;
        }
        const url = filter.judge(f);
        if (!url.startsWith('http')) {
          leftOut[url as LeftOut]++;
          continue;
        }
        s.kept++;
        if (request !== undefined) this.requests.add(request);
        if (lastmod === 'none') {
          if (!this.seen.add(url)) continue;
          s.urls++;
          items.push({ loc: url });
          at.push(lineNo);
          continue;
        }
        const t =
          lastmod === 'last-hit'
            ? time
            : f.lastModified === undefined
              ? Number.NaN
              : Date.parse(f.lastModified);
        const before = this.times.get(url);
        if (before === undefined) s.urls++;
        if (before === undefined || (!Number.isNaN(t) && !(t <= before))) this.times.set(url, t);
      }
      if (items.length > 0) yield { items, file: where, lines: at };
    }
    if (parsed === 0 && s.lines > 0) throw refuse();
    if (s.unreadable > WARNED_LINES)
      options.onDiagnostic?.({
        code: 'log-line-unreadable',
        severity: 'warning',
        message: `${(s.unreadable - WARNED_LINES).toLocaleString('en-US')} more lines could not be read and were left out`,
        sitemap: where,
      });
    options.onFile?.(s);
  }

  /** With a lastmod option: every URL once the logs are read, in the order first seen. */
  *held(): Generator<RecordBatch<SourceRecord>> {
    let items: SourceRecord[] = [];
    for (const [loc, t] of this.times) {
      if (!this.seen.add(loc)) continue;
      items.push(
        Number.isNaN(t) ? { loc } : { loc, lastmod: new Date(t).toISOString().replace('.000Z', 'Z') },
      );
      if (items.length === 1024) {
        yield { items };
        items = [];
      }
    }
    if (items.length > 0) yield { items };
    this.times.clear();
  }
}

/** What decides a line's URL, as one string: the host field, the method and the target. */
function requestKey(f: LogLine): string {
  const request = f.request ?? `${f.method ?? ''} ${f.path ?? ''}?${f.query ?? ''}`;
  return f.vhost === undefined ? request : `${f.vhost} ${request}`;
}

function openInput(file: string, stdin: NodeJS.ReadableStream | undefined): AsyncIterable<Uint8Array> {
  if (file !== '-') return createReadStream(file);
  if (stdin === undefined)
    throw new SitemapkitError('ERR_INPUT', 'no standard input to read', { where: '-' });
  return stdin as AsyncIterable<Uint8Array>;
}

/**
 * Reads access logs into records `{ loc }` (with `lastmod` when asked), one per distinct URL over
 * all the logs: GET requests answered 200 or 304, on the site, that are no asset, without
 * session and tracking parameters. The options are checked at once (`ERR_OPTIONS`); a log that
 * cannot be opened, or whose lines are all in another format, fails with `ERR_INPUT` naming it.
 *
 * @example
 * await writeSitemaps(readAccessLogs(['/var/log/nginx/access.log', '/var/log/nginx/access.log.2.gz'],
 *   { site: 'https://example.com/' }), { outDir: 'dist', baseUrl: 'https://example.com/' });
 */
export function readAccessLogs(
  inputs: LogInput | readonly LogInput[],
  options: AccessLogOptions,
): BatchedSource<SourceRecord> {
  const r = resolve(options);
  const list =
    typeof inputs === 'string' || !Array.isArray(inputs) ? [inputs as LogInput] : [...(inputs as LogInput[])];
  return batchedSource(async function* () {
    const run = new LogRun(r);
    for (const input of list) yield* run.file(input);
    yield* run.held();
  });
}
