/**
 * The report as one self-contained HTML file: inline CSS, inline SVG charts, a few lines of inline
 * script for filtering, and a Content-Security-Policy that forbids every network request. It opens
 * from disk, from a CI artifact or from a mail attachment alike.
 */

import { barChart, type Column, columnChart, columnScale, donutChart, esc } from '../../chart/svg.js';
import type { Severity } from '../../core/diagnostics.js';
import { enNumber } from '../../core/en-number.js';
import { ROBOTS_STATUS } from '../live/live-robots.js';
import type { ValidationResult } from '../types.js';
import { countsLine, scopeLine, whereOf } from './text.js';

/** Options of {@link formatHtml}. */
export interface HtmlReportOptions {
  /** Findings listed in the table at most (the counts cover all of them). @default 2000 */
  maxRows?: number;
}

export const SEVERITY_COLORS: Readonly<Record<Severity, string>> = {
  error: '#c62828',
  warning: '#d97706',
  info: '#1d63c4',
};

function n(x: number): string {
  return enNumber(x);
}

function statusColor(status: string): string {
  if (status.startsWith('2')) return '#2e7d32';
  if (status.startsWith('3')) return '#6d4c9f';
  if (status.startsWith('4')) return '#d97706';
  if (status.startsWith('5')) return '#c62828';
  return '#6b7280';
}

/**
 * Chart labels for sitemaps: without the origin they all share (it is in the header), so that the
 * label holds the path, whose end tells them apart.
 */
export function sitemapLabels(names: readonly string[]): string[] {
  const origins = new Set(names.map((s) => /^https?:\/\/[^/]+/i.exec(s)?.[0] ?? ''));
  const only = origins.size === 1 ? [...origins][0]! : '';
  return names.map((s) => (only !== '' && s.length > only.length ? s.slice(only.length) : s));
}

/**
 * lastmod counts as chart columns: one a month when the span is under three years, one a quarter
 * when it is ten years or less, else one a year (the oldest years folded into the first column),
 * gaps filled with zeros. Fewer, fuller columns: 40 URLs over seven years drawn by month are 84
 * columns of 0 or 1, which says nothing.
 */
export function timelineColumns(byMonth: Readonly<Record<string, number>>): Column[] {
  const months: Array<[number, number, number]> = [];
  for (const [key, count] of Object.entries(byMonth)) {
    const m = /^(\d{4})-(\d{2})$/.exec(key);
    if (m !== null) months.push([Number(m[1]), Number(m[2]), count]);
  }
  if (months.length === 0) return [];
  const index = (y: number, mo: number): number => y * 12 + (mo - 1);
  const first = Math.min(...months.map(([y, mo]) => index(y, mo)));
  const last = Math.max(...months.map(([y, mo]) => index(y, mo)));
  if (last - first < 120) {
    // Months, or quarters (3 months) for spans of three years and more.
    const size = last - first < 36 ? 1 : 3;
    const cols: Column[] = [];
    const counts = new Map<number, number>();
    for (const [y, mo, c] of months) {
      const at = Math.floor(index(y, mo) / size);
      counts.set(at, (counts.get(at) ?? 0) + c);
    }
    for (let i = Math.floor(first / size); i <= Math.floor(last / size); i++) {
      const y = Math.floor((i * size) / 12);
      const within = ((i * size) % 12) / size;
      const label = size === 1 ? `${y}-${String(within + 1).padStart(2, '0')}` : `${y}-Q${within + 1}`;
      cols.push({ label, value: counts.get(i) ?? 0 });
    }
    return cols;
  }
  const lastYear = Math.floor(last / 12);
  const firstYear = Math.max(Math.floor(first / 12), lastYear - 59);
  const years = new Map<number, number>();
  for (const [y, , c] of months) {
    const at = Math.max(y, firstYear);
    years.set(at, (years.get(at) ?? 0) + c);
  }
  const cols: Column[] = [];
  for (let y = firstYear; y <= lastYear; y++) {
    const folded = y === firstYear && Math.floor(first / 12) < firstYear;
    cols.push({ label: folded ? `≤${y}` : String(y), value: years.get(y) ?? 0 });
  }
  return cols;
}

const STYLE = `
:root{color-scheme:light;--fg:#1f2328;--muted:#59636e;--line:#d0d7de;--bg:#f6f8fa;--error:${SEVERITY_COLORS.error};--warning:${SEVERITY_COLORS.warning};--info:${SEVERITY_COLORS.info}}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:#fff}
header,main,footer{max-width:1200px;margin:0 auto;padding:16px 24px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}
.muted{color:var(--muted)}
.verdict{display:inline-block;font-weight:600;padding:2px 10px;border-radius:12px;color:#fff}
.verdict.valid{background:#2e7d32}.verdict.invalid{background:var(--error)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:12px;margin:16px 0}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 14px;background:var(--bg)}
.card b{display:block;font-size:22px}
.card.error b{color:var(--error)}.card.warning b{color:var(--warning)}.card.info b{color:var(--info)}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr));gap:16px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:12px;min-width:0}
svg.chart{display:block;max-width:100%;height:auto}
figcaption{font-weight:600;margin-bottom:8px}
.chart text{font-size:12px;fill:var(--fg)}.chart .value{fill:var(--muted)}.chart .total{font-size:20px;font-weight:600}
.chart .axis{stroke:var(--line)}.chart .grid{stroke:var(--line);stroke-dasharray:2 3}
.chart .bar:hover rect,.chart .col:hover rect{opacity:.75}
.empty{color:var(--muted);padding:24px 0}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line)}
th{background:var(--bg);position:sticky;top:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.msg{word-break:break-word}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
.sev{font-weight:600;text-transform:uppercase;font-size:11px}
.sev.error{color:var(--error)}.sev.warning{color:var(--warning)}.sev.info{color:var(--info)}
.filters{display:flex;flex-wrap:wrap;gap:12px;align-items:center;margin:8px 0}
.filters input[type=search]{padding:4px 8px;border:1px solid var(--line);border-radius:6px;min-width:280px}
tr.hidden{display:none}
`;

// Filters the findings table by text and severity; the report reads fine without it.
const SCRIPT = `
(function(){
  var q=document.getElementById('q');var rows=[].slice.call(document.querySelectorAll('#findings tbody tr'));
  var boxes=[].slice.call(document.querySelectorAll('.filters input[type=checkbox]'));var shown=document.getElementById('shown');
  function apply(){var t=q.value.toLowerCase();var on={};boxes.forEach(function(b){on[b.value]=b.checked});var k=0;
    rows.forEach(function(r){var ok=on[r.getAttribute('data-severity')]&&(t===''||r.textContent.toLowerCase().indexOf(t)!==-1);
      r.className=ok?'':'hidden';if(ok)k++});shown.textContent=String(k)}
  q.addEventListener('input',apply);boxes.forEach(function(b){b.addEventListener('change',apply)});apply();
})();
`;

export function formatHtml(r: ValidationResult, options: HtmlReportOptions = {}): string {
  const maxRows = options.maxRows ?? 2000;
  const s = r.summary;
  const title = `Sitemap validation: ${r.sources.join(', ')}`;

  const cards = [
    ['error', 'Errors', s.errors],
    ['warning', 'Warnings', s.warnings],
    ['info', 'Notes', s.infos],
    ['', 'Sitemaps', s.sitemaps],
    ['', 'URLs', s.urls],
    ['', 'Pages fetched', s.checked],
  ]
    .map(
      ([cls, label, value]) =>
        `<div class="card ${cls}"><b>${n(value as number)}</b>${esc(label as string)}</div>`,
    )
    .join('');

  const ruleBars = r.rules.slice(0, 25).map((rule) => ({
    label: rule.code,
    value: rule.count,
    color: SEVERITY_COLORS[rule.severity],
    title: `${rule.code} (${rule.severity}): ${n(rule.count)}`,
  }));
  const rulesChart =
    ruleBars.length === 0
      ? '<p class="empty">No findings.</p>'
      : `${barChart(ruleBars, { label: 'Issues by rule, coloured by severity' })}${r.rules.length > 25 ? `<p class="muted">and ${r.rules.length - 25} more rules in the table below</p>` : ''}`;
  const severityChart = donutChart(
    [
      { label: 'errors', value: s.errors, color: SEVERITY_COLORS.error },
      { label: 'warnings', value: s.warnings, color: SEVERITY_COLORS.warning },
      { label: 'notes', value: s.infos, color: SEVERITY_COLORS.info },
    ],
    { label: 'Issues by severity' },
  );
  const statuses = Object.entries(r.stats.statusCodes);
  const statusChart =
    statuses.length === 0
      ? `<p class="empty">${r.settings.live ? 'No page was fetched.' : 'Pages were not fetched: run with --live to see their status codes.'}</p>`
      : barChart(
          statuses.map(([status, count]) => ({
            label:
              status === 'failed'
                ? 'no answer'
                : status === ROBOTS_STATUS
                  ? 'not fetched (robots.txt)'
                  : `HTTP ${status}`,
            value: count,
            color: statusColor(status),
          })),
          { label: 'Live status codes' },
        );
  const perSitemap = [...r.sitemaps].sort((a, b) => b.entries + b.sitemaps - (a.entries + a.sitemaps));
  const labels = sitemapLabels(perSitemap.slice(0, 30).map((m) => m.sitemap));
  const sitemapChart =
    perSitemap.length === 0
      ? '<p class="empty">No sitemap could be read.</p>'
      : `${barChart(
          perSitemap.slice(0, 30).map((m, i) => ({
            label: labels[i]!,
            value: m.format === 'sitemapindex' ? m.sitemaps : m.entries,
            color: m.format === 'sitemapindex' ? '#6d4c9f' : '#0f766e',
            title: `${m.sitemap}: ${m.format === 'sitemapindex' ? `${n(m.sitemaps)} sitemaps (index)` : `${n(m.entries)} URLs`}`,
          })),
          { label: 'URLs per sitemap (sitemaps per index)' },
        )}${perSitemap.length > 30 ? `<p class="muted">the 30 largest of ${n(perSitemap.length)} sitemaps</p>` : ''}`;
  const columns = timelineColumns(r.stats.lastmodByMonth);
  const without = r.stats.lastmodByMonth['none'] ?? 0;
  const unit = /Q\d$/.test(columns[0]?.label ?? '')
    ? 'quarter'
    : /-\d\d$/.test(columns[0]?.label ?? '')
      ? 'month'
      : 'year';
  const logScale = columnScale(columns.map((c) => c.value)).log
    ? '<p class="muted">Heights on a logarithmic scale: one period holds most URLs (the exact counts are in each column’s tooltip).</p>'
    : '';
  const timelineChart =
    columns.length === 0
      ? '<p class="empty">No URL has a lastmod.</p>'
      : `${columnChart(columns, { label: `URLs by lastmod ${unit}`, color: '#0f766e' })}${logScale}${without > 0 ? `<p class="muted">${n(without)} URL(s) without lastmod</p>` : ''}`;

  const ruleRows = r.rules
    .map(
      (rule) =>
        `<tr><td><span class="sev ${rule.severity}">${rule.severity}</span></td><td><code>${esc(rule.code)}</code></td><td class="num">${n(rule.count)}</td><td>${esc(rule.summary)}</td><td>${esc(rule.fix)}</td></tr>`,
    )
    .join('\n');
  const findings = r.diagnostics.slice(0, maxRows);
  const findingRows = findings
    .map(
      (d) =>
        `<tr data-severity="${d.severity}"><td><span class="sev ${d.severity}">${d.severity}</span></td><td><code>${esc(d.code)}</code></td><td>${esc(whereOf(d))}</td><td class="msg">${esc(d.message)}${d.url !== undefined && !d.message.includes(d.url) ? `<br><span class="muted">${esc(d.url)}</span>` : ''}</td></tr>`,
    )
    .join('\n');
  const total = r.rules.reduce((sum, rule) => sum + rule.count, 0);
  const sitemapRows = r.sitemaps
    .map(
      (m) =>
        `<tr><td class="msg">${esc(m.sitemap)}</td><td>${esc(m.format ?? 'unreadable')}${m.gzip ? ' (gzip)' : ''}</td><td class="num">${n(m.entries)}</td><td class="num">${n(m.sitemaps)}</td><td class="num">${n(m.bytes)}</td><td class="num">${n(r.perSitemap[m.sitemap] === undefined ? 0 : Object.values(r.perSitemap[m.sitemap]!).reduce((a, b) => a + b, 0))}</td></tr>`,
    )
    .join('\n');

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="sitemapkit">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Sitemap validation</h1>
<p><span class="verdict ${s.valid ? 'valid' : 'invalid'}">${s.valid ? 'valid' : 'invalid'}</span> ${esc(countsLine(r))}</p>
<p class="muted">${esc(r.sources.join(', '))}<br>${esc(scopeLine(r))}<br>${esc(r.startedAt)} to ${esc(r.finishedAt)}</p>
</header>
<main>
<section class="cards" aria-label="Totals">${cards}</section>
<section class="charts" aria-label="Charts">
<figure id="chart-rules"><figcaption>Issues by rule and severity</figcaption>${rulesChart}</figure>
<figure id="chart-severity"><figcaption>Issues by severity</figcaption>${severityChart}</figure>
<figure id="chart-status"><figcaption>Status codes of the listed pages</figcaption>${statusChart}</figure>
<figure id="chart-sitemaps"><figcaption>URLs per sitemap</figcaption>${sitemapChart}</figure>
<figure id="chart-lastmod"><figcaption>lastmod timeline</figcaption>${timelineChart}</figure>
</section>
<h2 id="rules-heading">Rules</h2>
${r.rules.length === 0 ? '<p class="empty">No rule fired.</p>' : `<table id="rules"><thead><tr><th>Severity</th><th>Rule</th><th class="num">Count</th><th>What it means</th><th>Fix</th></tr></thead><tbody>\n${ruleRows}\n</tbody></table>`}
<h2 id="findings-heading">Findings</h2>
<div class="filters"><input type="search" id="q" placeholder="Filter by URL, file, rule or text" aria-label="Filter findings">
<label><input type="checkbox" value="error" checked> errors</label><label><input type="checkbox" value="warning" checked> warnings</label><label><input type="checkbox" value="info" checked> notes</label>
<span class="muted"><span id="shown">${findings.length}</span> shown of ${n(total)}${total > findings.length ? ' (the counts above include every finding; this table lists the first ones of each rule)' : ''}</span></div>
<table id="findings"><thead><tr><th>Severity</th><th>Rule</th><th>Where</th><th>Message</th></tr></thead><tbody>
${findingRows}
</tbody></table>
<h2 id="sitemaps-heading">Sitemaps</h2>
<table id="sitemaps"><thead><tr><th>Sitemap</th><th>Format</th><th class="num">URLs</th><th class="num">Children</th><th class="num">Bytes</th><th class="num">Findings</th></tr></thead><tbody>
${sitemapRows}
</tbody></table>
</main>
<footer class="muted">Generated by sitemapkit validate. Every rule, its severity and its fix: docs/rules.md.</footer>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
