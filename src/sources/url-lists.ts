/**
 * Writer inputs: URL lists as text (one URL a line), CSV (a header row naming the fields) and JSON
 * Lines (full entries). Each yields entry inputs tagged with their origin (file and line), so an
 * invalid record is reported where the user can find it.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { SitemapkitError } from '../core/errors.js';
import { type BatchedSource, batchedSource } from '../writer/batches.js';
import { ORIGIN, type RecordOrigin, UnreadableRecord } from '../writer/write-sitemaps.js';
import { readLineBatches } from './lines.js';

export type InputFormat = 'txt' | 'csv' | 'jsonl';

/** A record as the writer receives it: an entry input, or anything (the writer reports what is wrong). */
export type SourceRecord = Record<string, unknown> & { [ORIGIN]?: RecordOrigin };

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

function tag(rec: SourceRecord, file: string, line: number): SourceRecord {
  rec[ORIGIN] = { file: file === '-' ? '<stdin>' : file, line };
  return rec;
}

/** One URL a line; blank lines and lines starting with `#` are skipped. */
export function readTxt(file: string, stdin?: NodeJS.ReadableStream): BatchedSource<SourceRecord> {
  return batchedSource(async function* () {
    const where = file === '-' ? '<stdin>' : file;
    for await (const [lines, first] of readLineBatches(open(file, stdin))) {
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

/** Full entries, one JSON object a line (the entry model). */
export function readJsonl(
  file: string,
  stdin?: NodeJS.ReadableStream,
): BatchedSource<SourceRecord | UnreadableRecord> {
  const where = file === '-' ? '<stdin>' : file;
  return batchedSource(async function* () {
    for await (const [lines, first] of readLineBatches(open(file, stdin))) {
      const out: Array<SourceRecord | UnreadableRecord> = [];
      const at: number[] = [];
      for (let i = 0; i < lines.length; i++) {
        const raw = lines[i]!;
        const line = first + i;
        if (raw.trim() === '') continue;
        let v: unknown;
        try {
          v = JSON.parse(raw);
        } catch (e) {
          // A broken line is a broken record: the writer reports it like any other invalid record.
          out.push(new UnreadableRecord(`the line is not valid JSON (${(e as Error).message})`));
          at.push(line);
          continue;
        }
        if (typeof v !== 'object' || v === null || Array.isArray(v)) {
          out.push(
            new UnreadableRecord(
              'the line is not a JSON object; each line must be one entry such as {"loc": "https://…"}',
            ),
          );
          at.push(line);
          continue;
        }
        out.push(v as SourceRecord);
        at.push(line);
      }
      if (out.length > 0) yield { items: out, file: where, lines: at };
    }
  });
}

const CSV_FIELDS = new Set([
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
]);

/**
 * CSV with a header row. Columns: `loc` (or `url`), `lastmod`, `changefreq`, `priority`, `title`,
 * `section`, `images` (image URLs separated by spaces), `mobile` (true/yes/1), and one
 * `hreflang:CODE` column per language holding that version's URL. Unknown columns are refused up
 * front, naming the column, rather than silently ignored.
 */
export async function* readCsv(file: string, stdin?: NodeJS.ReadableStream): AsyncGenerator<SourceRecord> {
  const parser = (open(file, stdin) as Readable).pipe(
    parseCsv({ bom: true, skip_empty_lines: true, relax_column_count: false, trim: true, info: true }),
  );
  let header: string[] | undefined;
  const where = file === '-' ? '<stdin>' : file;
  try {
    for await (const row of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const cells = row.record;
      const line = row.info.lines;
      if (header === undefined) {
        header = cells.map((c) => c.trim());
        const lower = header.map((h) => h.toLowerCase());
        if (!lower.includes('loc') && !lower.includes('url')) {
          throw new SitemapkitError('ERR_INPUT', 'the CSV header row must name a loc (or url) column', {
            where: `${where}:${line}`,
            hint: `Columns: ${[...CSV_FIELDS].join(', ')}, hreflang:CODE`,
          });
        }
        const unknown = header.filter((h) => !CSV_FIELDS.has(h.toLowerCase()) && !/^hreflang:/i.test(h));
        if (unknown.length > 0) {
          throw new SitemapkitError(
            'ERR_INPUT',
            `unknown CSV column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')}`,
            {
              where: `${where}:${line}`,
              hint: `Columns: ${[...CSV_FIELDS].join(', ')}, hreflang:CODE`,
            },
          );
        }
        continue;
      }
      const rec: SourceRecord = {};
      const alternates: Array<{ hreflang: string; href: string }> = [];
      header.forEach((h, i) => {
        const v = cells[i] ?? '';
        if (v === '') return;
        const k = h.toLowerCase();
        if (k.startsWith('hreflang:')) alternates.push({ hreflang: h.slice('hreflang:'.length), href: v });
        else if (k === 'url' || k === 'loc') rec['loc'] = v;
        else if (k === 'image' || k === 'images') rec['images'] = v.split(/\s+/);
        else if (k === 'mobile') rec['mobile'] = /^(?:true|yes|1)$/i.test(v);
        else rec[k] = v;
      });
      if (alternates.length > 0) rec['alternates'] = alternates;
      yield tag(rec, file, line);
    }
  } catch (e) {
    if (e instanceof SitemapkitError) throw e;
    const err = e as Error & { lines?: number };
    throw new SitemapkitError('ERR_INPUT', `cannot read the CSV: ${err.message}`, {
      where: `${where}${err.lines ? `:${err.lines}` : ''}`,
      cause: e,
    });
  }
}

/** Reads one input of any format. */
export function readInput(
  file: string,
  format: InputFormat,
  stdin?: NodeJS.ReadableStream,
): AsyncIterable<SourceRecord | UnreadableRecord> {
  if (format === 'txt') return readTxt(file, stdin);
  if (format === 'csv') return readCsv(file, stdin);
  return readJsonl(file, stdin);
}
