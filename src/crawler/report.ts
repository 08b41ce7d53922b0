/**
 * The crawl report, for people and scripts, written from the state database: `urls.jsonl` and
 * `urls.csv` (every URL found, streamed) and `report.html` (status codes, depths, why each URL was
 * left out, broken links with the pages that link to them, redirect chains, charts; tables are
 * capped, the JSONL and CSV are complete). Every file is written to a temporary name and renamed.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { ensureDir } from '../writer/atomic.js';
import type { CrawlStats, UrlRecord } from './records.js';
import type { CrawlState } from './state.js';

/** The files of a report. */
export interface CrawlReportFiles {
  dir: string;
  html: string;
  jsonl: string;
  csv: string;
}

export interface CrawlReportInput {
  dir: string;
  stats: CrawlStats;
  starts: readonly string[];
  complete: boolean;
  generatedAt: Date;
}

/** Rows per table in report.html; the JSONL and CSV files hold everything. */
const TABLE_ROWS = 500;
const REFERRERS = 10;

/** What each verdict means, for the report. */
export const VERDICT_TEXT: Readonly<Record<string, string>> = {
  listed: 'in the sitemap',
  noindex: 'noindex (meta robots or X-Robots-Tag)',
  canonicalised: 'canonical points to another URL',
  redirect: 'redirect (the target is listed instead)',
  broken: 'broken (4xx)',
  error: 'server or network error (5xx, timeout)',
  'not-ok': 'status other than 200',
  'non-html': 'not an HTML page',
  robots: 'disallowed by robots.txt',
  excluded: 'excluded by --include/--exclude',
  trap: 'crawler trap guard',
  'too-deep': 'deeper than --max-depth',
  invalid: 'URL cannot go into a sitemap',
  queued: 'not crawled (--max-pages reached)',
};

const CSV_COLUMNS = [
  'url',
  'depth',
  'status',
  'verdict',
  'reason',
  'target',
  'content_type',
  'title',
  'lastmod',
  'source',
  'via',
  'inlinks',
  'bytes',
  'ms',
  'attempts',
] as const;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One CSV field (RFC 4180), with spreadsheet formula triggers defused. */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function writeStreamed(path: string, lines: Iterable<string>): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  const ws = createWriteStream(tmp);
  try {
    let buf = '';
    for (const line of lines) {
      buf += line;
      if (buf.length > 65_536) {
        if (!ws.write(buf)) await new Promise<void>((r) => ws.once('drain', () => r()));
        buf = '';
      }
    }
    ws.end(buf);
    await finished(ws);
    await rename(tmp, path);
  } catch (error) {
    ws.destroy();
    await rm(tmp, { force: true });
    throw error;
  }
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** A recrawl's changes against the crawl before it, for the summary table. */
function changesRow(s: CrawlStats): string {
  const c = s.changes;
  if (c === undefined) return '';
  const n = (v: number): string => v.toLocaleString('en-US');
  return `\n<tr><th>since the last crawl</th><td>${n(c.unchanged)} unchanged (${n(c.notModified)} answered 304) · ${n(c.changed)} changed · ${n(c.added)} new · ${n(c.removed)} gone${c.kept > 0 ? ` · ${n(c.kept)} failed and kept` : ''}</td></tr>`;
}

function bars(rows: Array<[string, number]>, cls = ''): string {
  const max = Math.max(1, ...rows.map((r) => r[1]));
  return `<table class="bars ${cls}">${rows
    .map(
      ([label, n]) =>
        `<tr><th>${escapeHtml(label)}</th><td class="n">${n.toLocaleString('en-US')}</td><td class="bar"><span style="width:${((n / max) * 100).toFixed(1)}%"></span></td></tr>`,
    )
    .join('')}</table>`;
}

function link(url: string): string {
  const e = escapeHtml(url);
  return `<a href="${e}" rel="nofollow noreferrer">${e}</a>`;
}

function more(total: number, shown: number): string {
  return total > shown
    ? `<p class="more">${(total - shown).toLocaleString('en-US')} more in urls.csv / urls.jsonl.</p>`
    : '';
}

function renderHtml(state: CrawlState, input: CrawlReportInput): string {
  const s = input.stats;
  const verdicts = Object.entries(s.verdicts).sort((a, b) => b[1] - a[1]);
  const leftOut = verdicts.filter(([v]) => v !== 'listed');
  const statusRows = Object.entries(s.statuses).map(([k, v]): [string, number] => [`HTTP ${k}`, v]);
  const depthRows = [...state.depthCounts()].map(([d, n]): [string, number] => [`depth ${d}`, n]);

  const broken = state.byVerdict(['broken', 'error'], TABLE_ROWS);
  const brokenTotal = (s.verdicts['broken'] ?? 0) + (s.verdicts['error'] ?? 0);
  const brokenRows = broken
    .map((r) => {
      const refs = state.referrers(r.id, REFERRERS);
      const list = refs.urls.map((u) => `<li>${link(u)}</li>`).join('');
      const extra = refs.total > refs.urls.length ? `<li>… ${refs.total - refs.urls.length} more</li>` : '';
      return `<tr><td>${link(r.url)}</td><td>${r.status ?? '—'}</td><td>${escapeHtml(r.reason ?? '')}</td><td><ul>${list}${extra}</ul></td></tr>`;
    })
    .join('');

  const redirects = state.byVerdict(['redirect'], TABLE_ROWS);
  const redirectRows = redirects
    .map((r) => {
      const chain: string[] = [r.url];
      let cur: UrlRecord | undefined = r;
      const seen = new Set<string>([r.url]);
      while (cur?.verdict === 'redirect' && cur.target !== null && chain.length < 12) {
        const next = cur.target;
        chain.push(next);
        if (seen.has(next)) {
          chain.push('(loop)');
          break;
        }
        seen.add(next);
        cur = state.find(next);
      }
      const end = cur?.verdict === 'redirect' ? 'redirect' : (cur?.verdict ?? 'not crawled');
      return `<tr><td>${chain.map((u) => (u === '(loop)' ? '<em>loop</em>' : link(u))).join(' →<br>')}</td><td>${chain.length - 1}</td><td>${escapeHtml(end)}</td></tr>`;
    })
    .join('');

  const leftOutSections = leftOut
    .map(([v, n]) => {
      const rows =
        v === 'queued'
          ? []
          : state
              .byVerdict([v], 20)
              .map((r) => `<tr><td>${link(r.url)}</td><td>${escapeHtml(r.reason ?? '')}</td></tr>`);
      return `<details><summary><b>${escapeHtml(v)}</b> — ${escapeHtml(VERDICT_TEXT[v] ?? v)}: ${n.toLocaleString('en-US')}</summary>${
        rows.length > 0
          ? `<table class="list"><tr><th>URL</th><th>why</th></tr>${rows.join('')}</table>${more(n, rows.length)}`
          : ''
      }</details>`;
    })
    .join('');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Crawl report: ${escapeHtml(input.starts.join(', '))}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{padding:.25rem .5rem;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
.bars th{width:12rem;font-weight:normal}.bars .n{width:6rem;text-align:right}.bar span{display:block;height:.9rem;background:#3b82f6;min-width:1px}
.summary td{font-variant-numeric:tabular-nums}ul{margin:0;padding-left:1rem}a{color:#1d4ed8;word-break:break-all}
.more{color:#555}details{margin:.4rem 0}summary{cursor:pointer}
</style></head><body>
<h1>Crawl report</h1>
<p>Start: ${input.starts.map(link).join(', ')} · ${escapeHtml(input.generatedAt.toISOString())} · ${input.complete ? 'complete' : 'stopped by --max-pages (resume to continue)'}</p>
<table class="summary">
<tr><th>URLs found</th><td>${s.found.toLocaleString('en-US')}</td></tr>
<tr><th>fetched</th><td>${s.fetched.toLocaleString('en-US')}</td></tr>
<tr><th>in the sitemap</th><td>${s.listed.toLocaleString('en-US')}</td></tr>
<tr><th>broken or failing</th><td>${brokenTotal.toLocaleString('en-US')}</td></tr>
<tr><th>requests (this run)</th><td>${s.requests.toLocaleString('en-US')} in ${s.seconds.toFixed(1)} s (${s.pagesPerSecond.toFixed(1)}/s)</td></tr>
<tr><th>links to other hosts</th><td>${s.externalLinks.toLocaleString('en-US')} (not followed)</td></tr>${changesRow(s)}
</table>
<h2>Outcomes</h2>${bars(verdicts.map(([v, n]) => [v, n]))}
<h2>Status codes</h2>${bars(statusRows)}
<h2>Depths</h2>${bars(depthRows)}
<h2>Why URLs were left out</h2>${leftOutSections || '<p>Nothing was left out.</p>'}
<h2>Broken links</h2>${
    brokenRows === ''
      ? '<p>None.</p>'
      : `<table class="list"><tr><th>URL</th><th>status</th><th>why</th><th>linked from</th></tr>${brokenRows}</table>${more(brokenTotal, broken.length)}`
  }
<h2>Redirects</h2>${
    redirectRows === ''
      ? '<p>None.</p>'
      : `<table class="list"><tr><th>chain</th><th>hops</th><th>ends</th></tr>${redirectRows}</table>${more(s.verdicts['redirect'] ?? 0, redirects.length)}`
  }
<p class="more">Every URL, with its status, verdict and reason: urls.csv, urls.jsonl.</p>
</body></html>
`;
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
  await writeStreamed(
    files.jsonl,
    (function* () {
      for (const r of state.reportRows()) {
        yield `${JSON.stringify({
          url: r.url,
          depth: r.depth,
          status: r.status,
          verdict: r.verdict ?? 'queued',
          reason: r.reason,
          target: r.target,
          contentType: r.contentType,
          title: r.title,
          lastmod: r.lastmod,
          source: r.source,
          via: r.viaUrl,
          inlinks: r.inlinks,
          bytes: r.bytes,
          ms: r.ms,
          attempts: r.attempts,
          changedAt: r.changedAt,
          change: r.change,
        })}\n`;
      }
    })(),
  );
  await writeStreamed(
    files.csv,
    (function* () {
      yield `${CSV_COLUMNS.join(',')}\r\n`;
      for (const r of state.reportRows()) {
        yield `${[
          r.url,
          r.depth,
          r.status,
          r.verdict ?? 'queued',
          r.reason,
          r.target,
          r.contentType,
          r.title,
          r.lastmod,
          r.source,
          r.viaUrl,
          r.inlinks,
          r.bytes,
          r.ms,
          r.attempts,
        ]
          .map(csvField)
          .join(',')}\r\n`;
      }
    })(),
  );
  await writeAtomic(files.html, renderHtml(state, input));
  return files;
}
