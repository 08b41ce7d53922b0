/**
 * The crawl report, for people and scripts, written from the state database: `urls.jsonl` and
 * `urls.csv` (every URL found with its columns, streamed) and `report.html` (report-html.ts: charts,
 * the pages table, why URLs were left out, broken links, redirect chains; its tables are capped,
 * the JSONL and CSV are complete). Every file is written to a temporary name and renamed.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ensureDir } from '../writer/atomic.js';
import {
  type CrawlReportInput,
  MS_BUCKETS,
  msBucket,
  type ReportDigest,
  renderCrawlHtml,
  TABLE_ROWS,
} from './report-html.js';
import {
  addToRenderDigest,
  jsOnlyLinks,
  newRenderDigest,
  renderDifferences,
  renderedCell,
} from './report-render.js';
import type { CrawlState } from './state.js';

export { type CrawlReportInput, VERDICT_TEXT } from './report-html.js';

/** The files of a report. */
export interface CrawlReportFiles {
  dir: string;
  html: string;
  jsonl: string;
  csv: string;
}

type Cell = string | number | null | readonly string[];
/** One URL's columns, by position in the order of `REPORT_CELLS_SQL` (state-rows.ts). */
type Cells = readonly unknown[];

const str = (v: unknown): string | null => v as string | null;
const int = (v: unknown): number | null => v as number | null;

/**
 * The columns of `urls.csv` (its header line) and the keys of `urls.jsonl`, in their stable
 * order: a new column goes at the end, so that scripts reading by position keep working.
 * docs/crawl.md describes each one. Each reads its cell of the state's row by position.
 */
const COLUMNS: ReadonlyArray<readonly [csv: string, json: string, get: (c: Cells) => Cell]> = [
  ['url', 'url', (c) => str(c[0])],
  ['depth', 'depth', (c) => int(c[1])],
  ['status', 'status', (c) => int(c[2])],
  ['verdict', 'verdict', (c) => str(c[3]) ?? 'queued'],
  ['reason', 'reason', (c) => str(c[4])],
  ['target', 'target', (c) => str(c[5])],
  ['content_type', 'contentType', (c) => str(c[6])],
  ['title', 'title', (c) => str(c[7])],
  ['lastmod', 'lastmod', (c) => str(c[8])],
  ['source', 'source', (c) => str(c[9])],
  ['via', 'via', (c) => str(c[10])],
  ['inlinks', 'inlinks', (c) => int(c[11])],
  ['bytes', 'bytes', (c) => int(c[12])],
  ['ms', 'ms', (c) => int(c[13])],
  ['attempts', 'attempts', (c) => int(c[14])],
  ['canonical', 'canonical', (c) => str(c[15])],
  ['description_length', 'descriptionLength', (c) => int(c[16])],
  // Crawl `render` (docs/crawl.md, "Sites built with JavaScript"); empty when the page was not rendered.
  ['rendered', 'rendered', (c) => renderedCell(str(c[17]))],
  ['js_only_links', 'jsOnlyLinks', (c) => jsOnlyLinks(str(c[17]))],
  ['render_differences', 'renderDifferences', (c) => renderDifferences(str(c[17]))],
];

/** Columns of `urls.jsonl` only (a recrawl's observations). */
const JSONL_ONLY: ReadonlyArray<readonly [json: string, get: (c: Cells) => Cell]> = [
  ['changedAt', (c) => str(c[18])],
  ['change', (c) => str(c[19])],
];

/**
 * Each JSON key with what precedes it on the line (`{"url":`, `,"depth":`…): a line is built as
 * one string, the same bytes as `JSON.stringify` of the object with these keys in this order
 * (every value is a string, a number, null or an array of strings), without the object.
 */
const GETTERS: ReadonlyArray<(c: Cells) => Cell> = [
  ...COLUMNS.map((col) => col[2]),
  ...JSONL_ONLY.map((col) => col[1]),
];
const KEYS: readonly string[] = [...COLUMNS.map((col) => col[1]), ...JSONL_ONLY.map((col) => col[0])].map(
  (k, i) => `${i === 0 ? '{' : ','}${JSON.stringify(k)}:`,
);

/** One line of `urls.jsonl` (without its line break). */
export function jsonLine(c: Cells): string {
  let line = '';
  for (let i = 0; i < GETTERS.length; i++) {
    const v = GETTERS[i]!(c);
    line += KEYS[i]! + (v === null ? 'null' : JSON.stringify(v));
  }
  return `${line}}`;
}

/** One line of `urls.csv` (without its line break). */
export function csvLine(c: Cells): string {
  let line = csvField(COLUMNS[0]![2](c));
  for (let i = 1; i < COLUMNS.length; i++) line += `,${csvField(COLUMNS[i]![2](c))}`;
  return line;
}

/** The header line of `urls.csv` (without its line break). */
const CSV_HEADER: string = COLUMNS.map((c) => c[0]).join(',');

/** One CSV field (RFC 4180), with spreadsheet formula triggers defused. */
export function csvField(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'object') return csvField(v.join(' '));
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * Writes each file of `paths` from one pass over `lines` (one line for each file per step), each to
 * a temporary name renamed when all are complete: `urls.jsonl` and `urls.csv` read the state once.
 */
async function writeStreamed(paths: readonly string[], lines: Iterable<readonly string[]>): Promise<void> {
  const tag = `${process.pid}-${randomBytes(3).toString('hex')}`;
  const tmps = paths.map((p) => `${p}.tmp-${tag}`);
  const streams = tmps.map((t) => createWriteStream(t));
  try {
    const bufs = paths.map(() => '');
    for (const line of lines) {
      for (let i = 0; i < bufs.length; i++) {
        bufs[i] += line[i]!;
        if (bufs[i]!.length > 65_536) {
          const ws = streams[i]!;
          if (!ws.write(bufs[i])) await new Promise<void>((r) => ws.once('drain', () => r()));
          bufs[i] = '';
        }
      }
    }
    for (let i = 0; i < streams.length; i++) streams[i]!.end(bufs[i]);
    await Promise.all(streams.map((ws) => finished(ws)));
    for (let i = 0; i < paths.length; i++) await rename(tmps[i]!, paths[i]!);
  } catch (error) {
    for (const ws of streams) ws.destroy();
    await Promise.all(tmps.map((t) => rm(t, { force: true })));
    throw error;
  }
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** Writes `report.html`, `urls.jsonl` and `urls.csv` into `input.dir` (created when missing). */
export async function writeCrawlReport(
  state: CrawlState,
  input: CrawlReportInput,
): Promise<CrawlReportFiles> {
  // Bounded: Node's recursive mkdir loops forever under /proc.
  await ensureDir(input.dir, 'create the report folder');
  const files: CrawlReportFiles = {
    dir: input.dir,
    html: join(input.dir, 'report.html'),
    jsonl: join(input.dir, 'urls.jsonl'),
    csv: join(input.dir, 'urls.csv'),
  };
  // The one pass over the state writes the JSONL and the CSV and gathers what the HTML report
  // shows of every URL.
  const digest: ReportDigest = {
    pages: [],
    msCounts: new Array<number>(MS_BUCKETS.length + 1).fill(0),
    render: newRenderDigest(),
    depths: new Map(),
  };
  // The pages table's first rows: their records (a query stopped after them) with the address
  // and the inbound links the pass reads (counted once: the first URLs of a site, its home and
  // menu pages, are the most linked, and at a million pages counting their links took seconds).
  const first: Array<{ viaUrl: string | null; inlinks: number }> = [];
  await writeStreamed(
    [files.jsonl, files.csv],
    (function* () {
      yield ['', `${CSV_HEADER}\r\n`];
      for (const c of state.reportCells()) {
        if (first.length < TABLE_ROWS)
          first.push({ viaUrl: c[10] as string | null, inlinks: c[11] as number });
        const depth = c[1] as number;
        digest.depths.set(depth, (digest.depths.get(depth) ?? 0) + 1);
        const ms = c[13] as number | null;
        if (ms !== null) digest.msCounts[msBucket(ms)]!++;
        const rendered = c[17] as string | null;
        if (rendered !== null) addToRenderDigest(digest.render, { url: c[0] as string, rendered });
        yield [`${jsonLine(c)}\n`, `${csvLine(c)}\r\n`];
      }
    })(),
  );
  for (const r of state.records()) {
    const more = first[digest.pages.length];
    if (more === undefined) break;
    digest.pages.push({ ...r, ...more });
  }
  await writeAtomic(files.html, renderCrawlHtml(state, input, digest));
  return files;
}
