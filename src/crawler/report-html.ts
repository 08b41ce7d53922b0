/**
 * The crawl report's `report.html`: a pure function of the state's totals and the rows the
 * report's JSONL pass handed over (the first pages, the response times counted), with inline SVG
 * charts (src/chart, shared with the validator's and the audit's reports), the pages table with a
 * filter and sortable columns, why URLs were left out, broken links and redirect chains. No
 * external asset: the file opens offline.
 */
import { type Bar, barChart, esc } from '../chart/svg.js';
import type { CrawlStats, UrlRecord } from './records.js';
import { type RenderDigest, renderSection } from './report-render.js';
import type { CrawlState } from './state.js';

export interface CrawlReportInput {
  dir: string;
  stats: CrawlStats;
  starts: readonly string[];
  complete: boolean;
  generatedAt: Date;
}

/** One URL as `urls.csv`, `urls.jsonl` and the pages table show it. */
export type ReportRow = UrlRecord & { viaUrl: string | null; inlinks: number };

/** What the JSONL pass gathers for the HTML report, so that no second pass over the URLs is needed. */
export interface ReportDigest {
  /** The first URLs in discovery order (at most {@link TABLE_ROWS}). */
  pages: ReportRow[];
  /** Fetched URLs per response-time bucket, in the order of {@link MS_BUCKETS}. */
  msCounts: number[];
  /** What rendering found (crawl `render`). */
  render: RenderDigest;
  /** URLs found per depth (any order: the chart sorts them). */
  depths: Map<number, number>;
}

/** Rows per table in report.html; the JSONL and CSV files hold everything. */
export const TABLE_ROWS = 500;
const REFERRERS = 10;

/** Upper bounds (exclusive, ms) of the response-time buckets; the last bucket is open. */
export const MS_BUCKETS: readonly number[] = [100, 250, 500, 1000, 2000, 5000];

/** The bucket of a response time. */
export function msBucket(ms: number): number {
  const i = MS_BUCKETS.findIndex((b) => ms < b);
  return i === -1 ? MS_BUCKETS.length : i;
}

function msLabel(i: number): string {
  const lo = i === 0 ? 0 : MS_BUCKETS[i - 1]!;
  const hi = MS_BUCKETS[i];
  return hi === undefined ? `${lo} ms and more` : `${lo}–${hi - 1} ms`;
}

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

const GOOD = '#2e7d32';
const WARN = '#ef6c00';
const BAD = '#c62828';
const GREY = '#607d8b';
const BLUE = '#1565c0';

function verdictColor(v: string): string {
  if (v === 'listed') return GOOD;
  if (v === 'broken' || v === 'error') return BAD;
  if (v === 'queued' || v === 'excluded' || v === 'too-deep' || v === 'trap') return GREY;
  return WARN;
}

function statusColor(status: number): string {
  return status < 300 ? GOOD : status < 400 ? BLUE : status < 500 ? WARN : BAD;
}

function num(v: number): string {
  return v.toLocaleString('en-US');
}

/** A recrawl's changes against the crawl before it, for the summary table. */
function changesRow(s: CrawlStats): string {
  const c = s.changes;
  if (c === undefined) return '';
  return `\n<tr><th>since the last crawl</th><td>${num(c.unchanged)} unchanged (${num(c.notModified)} answered 304) · ${num(c.changed)} changed · ${num(c.added)} new · ${num(c.removed)} gone${c.kept > 0 ? ` · ${num(c.kept)} failed and kept` : ''}</td></tr>`;
}

function link(url: string): string {
  const e = esc(url);
  return `<a href="${e}" rel="nofollow noreferrer">${e}</a>`;
}

function more(total: number, shown: number): string {
  return total > shown ? `<p class="more">${num(total - shown)} more in urls.csv / urls.jsonl.</p>` : '';
}

function figure(id: string, caption: string, bars: readonly Bar[]): string {
  if (bars.length === 0) return '';
  return `<figure id="${id}"><figcaption>${esc(caption)}</figcaption>${barChart(bars, { label: caption })}</figure>`;
}

/** The pages table's columns: header, and whether it sorts as a number. */
const PAGE_COLUMNS: ReadonlyArray<readonly [string, boolean]> = [
  ['URL', false],
  ['status', true],
  ['verdict', false],
  ['why', false],
  ['depth', true],
  ['inlinks', true],
  ['title', false],
  ['description', true],
  ['canonical', false],
  ['ms', true],
  ['bytes', true],
  ['content type', false],
];

function cell(v: string | number | null, numeric: boolean): string {
  if (v === null) return numeric ? '<td data-n="-1"></td>' : '<td></td>';
  return numeric ? `<td data-n="${v}">${num(Number(v))}</td>` : `<td>${esc(String(v))}</td>`;
}

function pageRow(r: ReportRow): string {
  const values: Array<string | number | null> = [
    r.url,
    r.status,
    r.verdict ?? 'queued',
    r.reason,
    r.depth,
    r.inlinks,
    r.title,
    r.descriptionLength,
    r.canonical,
    r.ms,
    r.bytes,
    r.contentType,
  ];
  return `<tr>${values.map((v, i) => (i === 0 ? `<td>${link(String(v))}</td>` : cell(v, PAGE_COLUMNS[i]![1]))).join('')}</tr>`;
}

// Filters the pages table by text and sorts it by a clicked column (numbers by data-n).
const SCRIPT = `const t=document.getElementById('pages');const q=document.getElementById('q');
q.addEventListener('input',()=>{const s=q.value.toLowerCase();for(const tr of t.tBodies[0].rows)tr.hidden=!tr.textContent.toLowerCase().includes(s);});
for(const th of t.tHead.rows[0].cells)th.addEventListener('click',()=>{const i=th.cellIndex;const numeric=th.dataset.num==='1';const asc=th.getAttribute('aria-sort')!=='ascending';
for(const o of t.tHead.rows[0].cells)o.removeAttribute('aria-sort');th.setAttribute('aria-sort',asc?'ascending':'descending');
const key=(tr)=>numeric?Number(tr.cells[i].dataset.n):tr.cells[i].textContent;const rows=[...t.tBodies[0].rows];
rows.sort((a,b)=>{const x=key(a),y=key(b);const c=numeric?x-y:String(x).localeCompare(String(y));return asc?c:-c;});t.tBodies[0].append(...rows);});`;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:80rem;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{padding:.25rem .5rem;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
.summary td{font-variant-numeric:tabular-nums}ul{margin:0;padding-left:1rem}a{color:#1d4ed8;word-break:break-all}
.more{color:#555}details{margin:.4rem 0}summary{cursor:pointer}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(36rem,1fr));gap:1rem}
figure{margin:0;border:1px solid #ddd;border-radius:8px;padding:12px;min-width:0;overflow-x:auto}figcaption{font-weight:600;margin-bottom:.4rem}
svg text{font:12px system-ui,sans-serif}svg .value{fill:#555}
#pages{font-size:13px}#pages th{cursor:pointer;white-space:nowrap;position:sticky;top:2.6rem;background:#fff}
#pages th[aria-sort=ascending]::after{content:" ▲"}#pages th[aria-sort=descending]::after{content:" ▼"}
#pages td[data-n]{text-align:right;font-variant-numeric:tabular-nums}
.filter{position:sticky;top:0;background:#fff;padding:.5rem 0}[hidden]{display:none}`;

/**
 * Where links to reports written beside this one after it go (`crawl --audit` writes audit.html
 * once the crawl's report is written): see {@link linkReport}.
 */
const LINKS_SLOT = '<!--sitemapkit:report-links-->';

/**
 * `report.html` with a link to another report beside it (`<a href>` markup, escaped by the
 * caller), under the summary line; `undefined` when the page has no place for it (a report of an
 * older release). Each link keeps the place for the next.
 */
export function linkReport(html: string, line: string): string | undefined {
  const at = html.indexOf(LINKS_SLOT);
  if (at < 0) return undefined;
  return `${html.slice(0, at)}<p class="reports">${line}</p>\n${html.slice(at)}`;
}

/** The whole `report.html`. */
export function renderCrawlHtml(state: CrawlState, input: CrawlReportInput, digest: ReportDigest): string {
  const s = input.stats;
  const verdicts = Object.entries(s.verdicts).sort((a, b) => b[1] - a[1]);
  const leftOut = verdicts.filter(([v]) => v !== 'listed');
  const verdictBars = verdicts.map(([v, n]) => ({ label: v, value: n, color: verdictColor(v) }));
  const statusBars = Object.entries(s.statuses).map(([k, v]) => ({
    label: `HTTP ${k}`,
    value: v,
    color: statusColor(Number(k)),
  }));
  const depthBars = [...digest.depths]
    .sort((a, b) => a[0] - b[0])
    .map(([d, n]) => ({
      label: `depth ${d}`,
      value: n,
      color: BLUE,
    }));
  const msBars = digest.msCounts.some((n) => n > 0)
    ? digest.msCounts.map((n, i) => ({ label: msLabel(i), value: n, color: GREY }))
    : [];

  // The lists read the state only for verdicts the crawl gave (each read is a scan of every URL).
  const brokenTotal = (s.verdicts['broken'] ?? 0) + (s.verdicts['error'] ?? 0);
  const broken = brokenTotal === 0 ? [] : state.byVerdict(['broken', 'error'], TABLE_ROWS);
  const brokenRows = broken
    .map((r) => {
      const refs = state.referrers(r.id, REFERRERS);
      const list = refs.urls.map((u) => `<li>${link(u)}</li>`).join('');
      const extra = refs.total > refs.urls.length ? `<li>… ${refs.total - refs.urls.length} more</li>` : '';
      return `<tr><td>${link(r.url)}</td><td>${r.status ?? '—'}</td><td>${esc(r.reason ?? '')}</td><td><ul>${list}${extra}</ul></td></tr>`;
    })
    .join('');

  const redirects = (s.verdicts['redirect'] ?? 0) === 0 ? [] : state.byVerdict(['redirect'], TABLE_ROWS);
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
      return `<tr><td>${chain.map((u) => (u === '(loop)' ? '<em>loop</em>' : link(u))).join(' →<br>')}</td><td>${chain.length - 1}</td><td>${esc(end)}</td></tr>`;
    })
    .join('');

  const leftOutSections = leftOut
    .map(([v, n]) => {
      const rows =
        v === 'queued'
          ? []
          : state
              .byVerdict([v], 20)
              .map((r) => `<tr><td>${link(r.url)}</td><td>${esc(r.reason ?? '')}</td></tr>`);
      return `<details><summary><b>${esc(v)}</b> — ${esc(VERDICT_TEXT[v] ?? v)}: ${num(n)}</summary>${
        rows.length > 0
          ? `<table class="list"><tr><th>URL</th><th>why</th></tr>${rows.join('')}</table>${more(n, rows.length)}`
          : ''
      }</details>`;
    })
    .join('');

  const head = PAGE_COLUMNS.map(([h, numeric]) => `<th data-num="${numeric ? 1 : 0}">${h}</th>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Crawl report: ${esc(input.starts.join(', '))}</title>
<style>${STYLE}</style></head><body>
<h1>Crawl report</h1>
<p>Start: ${input.starts.map(link).join(', ')} · ${esc(input.generatedAt.toISOString())} · ${input.complete ? 'complete' : 'stopped by --max-pages (resume to continue)'}</p>
${LINKS_SLOT}
<table class="summary">
<tr><th>URLs found</th><td>${num(s.found)}</td></tr>
<tr><th>fetched</th><td>${num(s.fetched)}</td></tr>
<tr><th>in the sitemap</th><td>${num(s.listed)}</td></tr>
<tr><th>broken or failing</th><td>${num(brokenTotal)}</td></tr>
<tr><th>requests (this run)</th><td>${num(s.requests)} in ${s.seconds.toFixed(1)} s (${s.pagesPerSecond.toFixed(1)}/s)</td></tr>
<tr><th>links to other hosts</th><td>${num(s.externalLinks)} (not followed)</td></tr>${changesRow(s)}
</table>
<div class="charts">
${figure('chart-verdicts', 'Outcomes', verdictBars)}
${figure('chart-status', 'Status codes', statusBars)}
${figure('chart-depth', 'Depths (link hops from the start)', depthBars)}
${figure('chart-ms', 'Response times', msBars)}
</div>
<h2>Pages</h2>
<div class="filter"><label>Filter <input id="q" type="search" placeholder="URL, verdict, title…"></label> · click a column to sort</div>
<table id="pages"><thead><tr>${head}</tr></thead><tbody>
${digest.pages.map(pageRow).join('\n')}
</tbody></table>${more(s.found, digest.pages.length)}
${renderSection(digest.render)}
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
<p class="more">Every URL, with every column: urls.csv, urls.jsonl.</p>
<script>${SCRIPT}</script>
</body></html>
`;
}
