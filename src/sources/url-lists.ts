/**
 * Writer inputs: URL lists as text (one URL a line), CSV (a header row naming the fields) and JSON
 * Lines (full entries). Each yields entry inputs tagged with their origin (file and line), so an
 * invalid record is reported where the user can find it.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { SitemapkitError } from '../core/errors.js';
import { type BatchedSource, batchedSource } from '../writer/batches.js';
import { CHECKED, type CheckableSource } from '../writer/checked.js';
import type { UnreadableRecord } from '../writer/write-sitemaps.js';
import { type CsvOptions, readCsvText, resolveColumns } from './csv.js';
import { jsonlRecord } from './jsonl-record.js';
import { checkInThread } from './jsonl-thread.js';
import { readLineBatches } from './lines.js';
import type { SourceRecord } from './record.js';
import { checkEncoding } from './text-decode.js';

export type InputFormat = 'txt' | 'csv' | 'jsonl';

export type { SourceRecord } from './record.js';

/** The format a file name implies, or undefined. */
export function formatFromName(name: string): InputFormat | undefined {
  const m = /\.(txt|csv|jsonl|ndjson)(?:\.gz)?$/i.exec(name);
  if (m === null) return undefined;
  const ext = m[1]!.toLowerCase();
  return ext === 'ndjson' ? 'jsonl' : (ext as InputFormat);
}

function open(file: string, stdin: NodeJS.ReadableStream | undefined): Readable | NodeJS.ReadableStream {
  if (file === '-') {
    if (stdin === undefined)
      throw new SitemapkitError('ERR_INPUT', 'no standard input to read', { where: '-' });
    return stdin;
  }
  const s = createReadStream(file);
  return s;
}

function whereOf(file: string): string {
  return file === '-' ? '<stdin>' : file;
}

/** How a text input is read. */
export interface TextInputOptions {
  /**
   * A WHATWG encoding label (`utf-8`, `windows-1252`, `latin1`, `utf-16le`, `utf-16be`, …); a
   * byte order mark overrides it. Bytes the encoding does not allow are an `ERR_INPUT` naming the
   * line, never U+FFFD in the output. @default 'utf-8'
   */
  encoding?: string | undefined;
}

/** How a JSONL input is read. */
export interface JsonlInputOptions extends TextInputOptions {
  /**
   * Whether the writer may read and check the file's records on a second thread while it writes
   * on this one (a file only, not standard input): less time on a machine with a free core, at
   * the cost of the thread's heap (peak RSS about 10 MiB higher, 30 with gzip) and of handing the
   * records over (6 to 8% more CPU). `generate` asks for it where there are two CPUs. @default false
   */
  threads?: boolean | undefined;
}

/** Every reader's options: the encoding, and for CSV its delimiter and columns. */
export type InputOptions = JsonlInputOptions & CsvOptions;

function lineBatches(file: string, stdin: NodeJS.ReadableStream | undefined, options: TextInputOptions) {
  return readLineBatches(open(file, stdin), { encoding: options.encoding, where: whereOf(file) });
}

/** One URL a line; blank lines and lines starting with `#` are skipped. */
export function readTxt(
  file: string,
  stdin?: NodeJS.ReadableStream,
  options: TextInputOptions = {},
): BatchedSource<SourceRecord> {
  if (options.encoding !== undefined) checkEncoding(options.encoding);
  return batchedSource(async function* () {
    const where = whereOf(file);
    for await (const [lines, first] of lineBatches(file, stdin, options)) {
      const items: SourceRecord[] = [];
      const at: number[] = [];
      for (let i = 0; i < lines.length; i++) {
        const s = lines[i]!.trim();
        if (s === '' || s.startsWith('#')) continue;
        items.push({ loc: s });
        at.push(first + i);
      }
      if (items.length > 0) yield { items, file: where, lines: at };
    }
  });
}

/**
 * Full entries, one JSON object a line (the entry model; `url` is read as `loc`). With `threads`,
 * the writer reads and checks a file's records on a second thread (`jsonl-thread.ts`).
 */
export function readJsonl(
  file: string,
  stdin?: NodeJS.ReadableStream,
  options: JsonlInputOptions = {},
): BatchedSource<SourceRecord | UnreadableRecord> & Partial<CheckableSource> {
  if (options.encoding !== undefined) checkEncoding(options.encoding);
  const where = whereOf(file);
  const source: BatchedSource<SourceRecord | UnreadableRecord> & Partial<CheckableSource> = batchedSource(
    async function* () {
      for await (const [lines, first] of lineBatches(file, stdin, options)) {
        const out: Array<SourceRecord | UnreadableRecord> = [];
        const at: number[] = [];
        for (let i = 0; i < lines.length; i++) {
          const record = jsonlRecord(lines[i]!);
          if (record === undefined) continue;
          out.push(record);
          at.push(first + i);
        }
        if (out.length > 0) yield { items: out, file: where, lines: at };
      }
    },
  );
  if (file !== '-' && options.threads === true) {
    source[CHECKED] = (request) => checkInThread(file, options.encoding, request);
  }
  return source;
}

/**
 * CSV with a header row (see {@link readCsvText} for the columns): the delimiter is detected
 * unless given, headers can be mapped onto fields, and extra columns refused or left out.
 */
export async function* readCsv(
  file: string,
  stdin?: NodeJS.ReadableStream,
  options: CsvOptions = {},
): AsyncGenerator<SourceRecord> {
  // The options are checked before the file is opened, so a bad option leaves no stream behind.
  resolveColumns(options);
  if (options.encoding !== undefined) checkEncoding(options.encoding);
  yield* readCsvText(open(file, stdin) as AsyncIterable<Uint8Array>, whereOf(file), options);
}

/** Reads one input of any format. */
export function readInput(
  file: string,
  format: InputFormat,
  stdin?: NodeJS.ReadableStream,
  options: InputOptions = {},
): AsyncIterable<SourceRecord | UnreadableRecord> {
  if (format === 'txt') return readTxt(file, stdin, options);
  if (format === 'csv') return readCsv(file, stdin, options);
  return readJsonl(file, stdin, options);
}
