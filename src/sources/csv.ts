/**
 * CSV with a header row, as shops and spreadsheets export it: the delimiter (comma, semicolon or
 * tab) is read from the header row, headers can be mapped onto fields, and columns the sitemap has
 * no use for (a shop's `Price`) can be left out by name or all at once.
 */
import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { SitemapkitError } from '../core/errors.js';
import { ORIGIN } from '../writer/write-sitemaps.js';
import type { SourceRecord } from './record.js';
import { decodeText } from './text-decode.js';

/** The fields a CSV column can hold, beside one `hreflang:CODE` column per language. */
export const CSV_FIELDS: readonly string[] = [
  'loc',
  'url',
  'lastmod',
  'changefreq',
  'priority',
  'title',
  'section',
  'images',
  'image',
  'mobile',
];
const FIELDS = new Set(CSV_FIELDS);

export interface CsvOptions {
  /** A WHATWG encoding label; a BOM overrides it. @default 'utf-8' */
  encoding?: string | undefined;
  /** The delimiter, one character. @default the most frequent of `,` `;` and tab in the header row */
  delimiter?: string | undefined;
  /** Header names for fields: `{ loc: 'URL', lastmod: 'Last Modified' }` (letter case aside). */
  columns?: Readonly<Record<string, string>> | undefined;
  /** Columns to leave out, by header name (letter case aside). */
  ignoreColumns?: readonly string[] | undefined;
  /** A column that is no field: `fail` names it and reads nothing; `ignore` leaves it out. @default 'fail' */
  extraColumns?: 'fail' | 'ignore' | undefined;
}

/** The delimiter of a header row: the most frequent of comma, semicolon and tab outside quotes. */
export function detectDelimiter(headerRow: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of headerRow) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

const EPOCH = /^\d{9,13}(?:\.\d+)?$/;

/** Checks the options and returns the header → field map they imply (lower-cased headers). */
export function resolveColumns(options: CsvOptions): Map<string, string> {
  const map = new Map<string, string>();
  for (const [field, header] of Object.entries(options.columns ?? {})) {
    const f = field.toLowerCase();
    if (!FIELDS.has(f) && !/^hreflang:./.test(f)) {
      throw new SitemapkitError('ERR_OPTIONS', `columns: "${field}" is not a CSV field`, {
        hint: `Fields: ${CSV_FIELDS.join(', ')}, hreflang:CODE; e.g. loc=URL,lastmod="Last Modified".`,
      });
    }
    map.set(header.trim().toLowerCase(), f.startsWith('hreflang:') ? `hreflang:${field.slice(9)}` : f);
  }
  if (options.delimiter !== undefined && [...options.delimiter].length !== 1) {
    throw new SitemapkitError('ERR_OPTIONS', `delimiter must be one character, not "${options.delimiter}"`, {
      hint: "For a tab, pass a real tab character (in a shell: --delimiter $'\\t') or the word tab.",
    });
  }
  return map;
}

/** How the column errors name the input: a CSV file's header row, or a query's result columns. */
export interface ColumnWords {
  /** `the CSV header row must name…` */
  must: string;
  /** `unknown CSV column` */
  unknown: string;
  /** The advice when no column holds the URL (`header` is the first column's name). */
  noLocHint(first: string | undefined): string;
  /** The advice for unknown columns (`first` is the first of them). */
  unknownHint(first: string): string;
}

const CSV_WORDS: ColumnWords = {
  must: 'the CSV header row must name',
  unknown: 'unknown CSV column',
  noLocHint: (first) =>
    `Name the URL column with --columns loc="${first ?? 'URL'}" (the columns option of the library). Columns: ${CSV_FIELDS.join(', ')}, hreflang:CODE.`,
  unknownHint: (first) =>
    `Columns: ${CSV_FIELDS.join(', ')}, hreflang:CODE. Map a column with --columns FIELD="Header", leave it out with --ignore-columns "${first}", or leave out every unknown column with --extra-columns ignore.`,
};

/**
 * What each column becomes: a field name, `hreflang:CODE`, or undefined (left out). Shared by the
 * CSV reader (header row) and the SQL reader (the query's column names).
 */
export function headerFields(
  header: readonly string[],
  mapped: Map<string, string>,
  options: CsvOptions,
  where: string,
  words: ColumnWords = CSV_WORDS,
): Array<string | undefined> {
  const ignored = new Set((options.ignoreColumns ?? []).map((c) => c.trim().toLowerCase()));
  const unknown: string[] = [];
  const fields = header.map((h) => {
    const k = h.toLowerCase();
    if (ignored.has(k)) return undefined;
    const m = mapped.get(k);
    if (m !== undefined) return m;
    if (FIELDS.has(k)) return k;
    if (k.startsWith('hreflang:')) return `hreflang:${h.slice(9)}`;
    if (options.extraColumns !== 'ignore') unknown.push(h);
    return undefined;
  });
  if (!fields.includes('loc') && !fields.includes('url')) {
    throw new SitemapkitError(
      'ERR_INPUT',
      `${words.must} a loc (or url) column; it has ${header.map((h) => `"${h}"`).join(', ')}`,
      { where, hint: words.noLocHint(header[0]) },
    );
  }
  if (unknown.length > 0) {
    throw new SitemapkitError(
      'ERR_INPUT',
      `${words.unknown}${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}`,
      { where, hint: words.unknownHint(unknown[0]!) },
    );
  }
  return fields;
}

/**
 * One row as a record: `cells[i]` holds the value of `fields[i]`. CSV cells are text; a database
 * hands typed values too (numbers, booleans, arrays), which are kept as the entry model takes
 * them. An empty cell, NULL or undefined is an absent field.
 */
export function rowToRecord(
  fields: ReadonlyArray<string | undefined>,
  cells: readonly unknown[],
): SourceRecord {
  const rec: SourceRecord = {};
  const alternates: Array<{ hreflang: string; href: unknown }> = [];
  for (let i = 0; i < fields.length; i++) {
    const k = fields[i];
    const v = cells[i];
    if (k === undefined || v === '' || v === null || v === undefined) continue;
    if (k.startsWith('hreflang:')) alternates.push({ hreflang: k.slice(9), href: v });
    else if (k === 'url' || k === 'loc') rec['loc'] = v;
    else if (k === 'image' || k === 'images') {
      if (typeof v === 'string') rec['images'] = splitImages(v);
      // A text[] (or JSON array) column: one image a cell; NULL and empty cells are none.
      else if (Array.isArray(v)) rec['images'] = v.filter((x) => x !== null && x !== '');
      else rec['images'] = v;
    } else if (k === 'mobile')
      rec['mobile'] = typeof v === 'string' ? /^(?:true|yes|1)$/i.test(v) : v === true || v === 1;
    // Spreadsheets and databases export times as epoch numbers; the writer reads them as JSONL does.
    else if (k === 'lastmod' && typeof v === 'string' && EPOCH.test(v)) rec['lastmod'] = Number(v);
    else rec[k] = v;
  }
  if (alternates.length > 0) rec['alternates'] = alternates;
  return rec;
}

/** An `images` cell: URLs separated by `|` (so a URL may hold a space), else by white space. */
export function splitImages(cell: string): string[] {
  const parts = cell.includes('|') ? cell.split('|') : cell.split(/\s+/);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Reads the text until the first line is complete, for the delimiter; yields the rest unchanged. */
async function peekFirstLine(text: AsyncIterable<string>): Promise<[string, AsyncIterable<string>]> {
  const it = text[Symbol.asyncIterator]();
  const buffered: string[] = [];
  let head = '';
  while (!head.includes('\n')) {
    const r = await it.next();
    if (r.done === true) break;
    buffered.push(r.value);
    head += r.value;
  }
  async function* all(): AsyncGenerator<string> {
    yield* buffered;
    for (let r = await it.next(); r.done !== true; r = await it.next()) yield r.value;
  }
  const nl = head.indexOf('\n');
  return [nl === -1 ? head : head.slice(0, nl), all()];
}

/**
 * CSV with a header row. Columns: `loc` (or `url`), `lastmod` (a date, or epoch seconds or
 * milliseconds), `changefreq`, `priority`, `title`, `section`, `images` (image URLs separated by
 * `|`, or by spaces), `mobile` (true/yes/1), and one `hreflang:CODE` column per language holding
 * that version's URL. Unknown columns are refused up front, naming the column, unless mapped,
 * ignored by name, or all ignored (`extraColumns: 'ignore'`).
 */
export async function* readCsvText(
  input: AsyncIterable<Uint8Array | string>,
  where: string,
  options: CsvOptions = {},
): AsyncGenerator<SourceRecord> {
  const mapped = resolveColumns(options);
  let delimiter = options.delimiter ?? ',';
  let source: Readable | undefined;
  let fields: Array<string | undefined> | undefined;
  try {
    const [first, text] = await peekFirstLine(decodeText(input, { encoding: options.encoding, where }));
    delimiter = options.delimiter ?? detectDelimiter(first);
    source = Readable.from(text);
    const parser = source.pipe(
      parseCsv({ delimiter, skip_empty_lines: true, relax_column_count: false, trim: true, info: true }),
    );
    // pipe() does not pass errors on: a decoding error must end the parse, not hang it.
    source.on('error', (e) => parser.destroy(e));
    for await (const row of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const cells = row.record;
      const line = row.info.lines;
      if (fields === undefined) {
        fields = headerFields(
          cells.map((c) => c.trim()),
          mapped,
          options,
          `${where}:${line}`,
        );
        continue;
      }
      const rec = rowToRecord(fields, cells);
      rec[ORIGIN] = { file: where, line };
      yield rec;
    }
  } catch (e) {
    if (e instanceof SitemapkitError) throw e;
    const err = e as Error & { lines?: number };
    throw new SitemapkitError('ERR_INPUT', `cannot read the CSV: ${err.message}`, {
      where: `${where}${err.lines ? `:${err.lines}` : ''}`,
      cause: e,
      hint:
        delimiter === ','
          ? 'Check the quotes of that row; give --delimiter if the columns are not separated by commas.'
          : `The columns were read as separated by ${delimiter === '\t' ? 'tabs' : `"${delimiter}"`}; give --delimiter if that is wrong.`,
    });
  } finally {
    source?.destroy();
  }
}
