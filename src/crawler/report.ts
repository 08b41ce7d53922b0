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
  type ReportRow,
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

/**
 * The columns of `urls.csv` (its header line) and the keys of `urls.jsonl`, in their stable
 * order: a new column goes at the end, so that scripts reading by position keep working.
 * docs/crawl.md describes each one.
 */
const COLUMNS: ReadonlyArray<readonly [csv: string, json: string, get: (r: ReportRow) => Cell]> = [
  ['url', 'url', (r) => r.url],
  ['depth', 'depth', (r) => r.depth],
  ['status', 'status', (r) => r.status],
  ['verdict', 'verdict', (r) => r.verdict ?? 'queued'],
  ['reason', 'reason', (r) => r.reason],
  ['target', 'target', (r) => r.target],
  ['content_type', 'contentType', (r) => r.contentType],
  ['title', 'title', (r) => r.title],
  ['lastmod', 'lastmod', (r) => r.lastmod],
  ['source', 'source', (r) => r.source],
  ['via', 'via', (r) => r.viaUrl],
  ['inlinks', 'inlinks', (r) => r.inlinks],
  ['bytes', 'bytes', (r) => r.bytes],
  ['ms', 'ms', (r) => r.ms],
  ['attempts', 'attempts', (r) => r.attempts],
  ['canonical', 'canonical', (r) => r.canonical],
  ['description_length', 'descriptionLength', (r) => r.descriptionLength],
  // Crawl `render` (docs/crawl.md, "Sites built with JavaScript"); empty when the page was not rendered.
  ['rendered', 'rendered', (r) => renderedCell(r.rendered)],
  ['js_only_links', 'jsOnlyLinks', (r) => jsOnlyLinks(r.rendered)],
  ['render_differences', 'renderDifferences', (r) => renderDifferences(r.rendered)],
];

/** Columns of `urls.jsonl` only (a recrawl's observations). */
const JSONL_ONLY: ReadonlyArray<readonly [json: string, get: (r: ReportRow) => Cell]> = [
  ['changedAt', (r) => r.changedAt],
  ['change', (r) => r.change],
];

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
  };
  await writeStreamed(
    [files.jsonl, files.csv],
    (function* () {
      yield ['', `${CSV_HEADER}\r\n`];
      for (const r of state.reportRows()) {
        if (digest.pages.length < TABLE_ROWS) digest.pages.push(r);
        if (r.ms !== null) digest.msCounts[msBucket(r.ms)]!++;
        if (r.rendered !== null) addToRenderDigest(digest.render, r);
        const o: Record<string, Cell> = {};
        for (const [, key, get] of COLUMNS) o[key] = get(r);
        for (const [key, get] of JSONL_ONLY) o[key] = get(r);
        yield [`${JSON.stringify(o)}\n`, `${COLUMNS.map((c) => csvField(c[2](r))).join(',')}\r\n`];
      }
    })(),
  );
  await writeAtomic(files.html, renderCrawlHtml(state, input, digest));
  return files;
}
