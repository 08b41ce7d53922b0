/**
 * The audit's reports, as pure functions from its result to text: for people (text, HTML with
 * inline SVG charts and filters, no external asset), for scripts (one JSON object) and for CI
 * (CSV, JUnit XML: one test case per rule, an error rule that fired is a failure).
 */

import { barChart, esc } from '../chart/svg.js';
import type { Severity } from '../core/diagnostics.js';
import { escapeXml } from '../core/xml.js';
import { csvField } from '../crawler/report.js';
import { RULES } from '../validate/rules.js';
import type { AuditCode, AuditCounts, AuditFinding } from './audit-core.js';

/** What the reports show. */
export interface AuditReportInput {
  start: string;
  sitemaps: readonly string[];
  findings: readonly AuditFinding[];
  counts: AuditCounts;
  generatedAt: Date;
  /** The crawl's own report beside this one (`report.html`, with `crawl --audit`): linked both ways. */
  crawlReport?: string;
}

/** Report formats of `sitemapkit audit`. */
export type AuditFormat = 'text' | 'json' | 'csv' | 'junit';

/** Findings listed per code in the text report. */
const TEXT_PER_CODE = 20;

const COLORS: Readonly<Record<Severity, string>> = { error: '#c62828', warning: '#ef6c00', info: '#1565c0' };

function byCode(findings: readonly AuditFinding[]): Map<AuditCode, AuditFinding[]> {
  const out = new Map<AuditCode, AuditFinding[]>();
  for (const f of findings) {
    const list = out.get(f.code);
    if (list === undefined) out.set(f.code, [f]);
    else list.push(f);
  }
  return out;
}

/** The report in the chosen format. */
export function formatAudit(r: AuditReportInput, format: AuditFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify({ findings: r.findings, counts: r.counts }, null, 2)}\n`;
    case 'csv':
      return auditCsv(r.findings);
    case 'junit':
      return auditJunit(r);
    default:
      return auditText(r);
  }
}

function ms(v: number | null): string {
  return v === null ? '-' : `${v} ms`;
}

/** Counts, then each code with its findings (capped). */
export function auditText(r: AuditReportInput): string {
  const c = r.counts;
  const lines = [
    `Audit of ${r.start} against ${r.sitemaps.join(', ')}: ${c.crawled} URLs crawled, ${c.inSitemaps} in the sitemaps; ${c.error} errors, ${c.warning} warnings, ${c.info} notes`,
    `  response times: p50 ${ms(c.responseMs.p50)}, p90 ${ms(c.responseMs.p90)}, p99 ${ms(c.responseMs.p99)}, max ${ms(c.responseMs.max)}`,
  ];
  for (const [code, list] of byCode(r.findings)) {
    const rule = RULES[code]!;
    lines.push('', `${code} (${rule.severity}): ${list.length} — ${rule.summary}`, `  fix: ${rule.fix}`);
    for (const f of list.slice(0, TEXT_PER_CODE)) lines.push(`  ${f.url}: ${f.message}`);
    if (list.length > TEXT_PER_CODE)
      lines.push(`  … and ${list.length - TEXT_PER_CODE} more (--format csv or json lists them all)`);
  }
  if (r.findings.length === 0) lines.push('', 'No finding: the sitemaps and the site agree.');
  return `${lines.join('\n')}\n`;
}

const CSV_COLUMNS = ['severity', 'code', 'url', 'sitemap', 'status', 'target', 'message', 'fix'] as const;

/** One row per finding. */
export function auditCsv(findings: readonly AuditFinding[]): string {
  const rows = findings.map((f) =>
    [f.severity, f.code, f.url, f.sitemap, f.status, f.target, f.message, f.fix]
      .map((v) => csvField(v ?? null))
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

/** One test suite, one test case per audit rule: an error rule with findings fails, the others pass with their findings as output. */
export function auditJunit(r: AuditReportInput): string {
  const groups = byCode(r.findings);
  const codes = Object.keys(RULES).filter((c) => c.startsWith('audit-')) as AuditCode[];
  let failures = 0;
  const cases = codes.map((code) => {
    const list = groups.get(code) ?? [];
    const rule = RULES[code]!;
    const name = escapeXml(`${code}: ${rule.summary}`);
    if (list.length === 0) return `    <testcase classname="audit" name="${name}"/>`;
    const text = escapeXml(list.map((f) => `${f.url}: ${f.message}`).join('\n'));
    if (rule.severity === 'error') {
      failures++;
      return `    <testcase classname="audit" name="${name}">\n      <failure message="${list.length} URL${list.length === 1 ? '' : 's'}: ${escapeXml(rule.fix)}">${text}</failure>\n    </testcase>`;
    }
    return `    <testcase classname="audit" name="${name}">\n      <system-out>${text}</system-out>\n    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="sitemapkit audit" tests="${codes.length}" failures="${failures}">\n  <testsuite name="${escapeXml(r.start)}" tests="${codes.length}" failures="${failures}" errors="0" timestamp="${r.generatedAt.toISOString()}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top;word-break:break-all}
td:nth-child(2),th:nth-child(2){white-space:nowrap}.sev{font-weight:600}.error{color:#c62828}.warning{color:#ef6c00}.info{color:#1565c0}.fix{color:#555}
.filters{position:sticky;top:0;background:#fff;padding:.5rem 0;border-bottom:1px solid #ddd}
svg text{font:12px system-ui,sans-serif}svg .value{fill:#555}[hidden]{display:none}`;

// Filters by severity and by text; sections with no visible row are hidden.
const SCRIPT = `const q=document.getElementById('q');const boxes=[...document.querySelectorAll('input[data-sev]')];
function apply(){const t=q.value.toLowerCase();const on=new Set(boxes.filter(b=>b.checked).map(b=>b.dataset.sev));
for(const s of document.querySelectorAll('section[data-sev]')){let n=0;for(const tr of s.querySelectorAll('tbody tr')){const show=on.has(s.dataset.sev)&&tr.textContent.toLowerCase().includes(t);tr.hidden=!show;if(show)n++;}s.hidden=n===0;}}
q.addEventListener('input',apply);for(const b of boxes)b.addEventListener('change',apply);`;

/** The HTML report: counts, charts, filters, a section per finding code. */
export function auditHtml(r: AuditReportInput): string {
  const c = r.counts;
  const groups = byCode(r.findings);
  const bars = [...groups].map(([code, list]) => ({
    label: code,
    value: list.length,
    color: COLORS[RULES[code]!.severity],
  }));
  const times = (['p50', 'p90', 'p99', 'max'] as const)
    .filter((k) => c.responseMs[k] !== null)
    .map((k) => ({ label: `${k} (ms)`, value: c.responseMs[k]!, color: '#546e7a' }));
  const sections = [...groups].map(([code, list]) => {
    const rule = RULES[code]!;
    const rows = list
      .map(
        (f) =>
          `<tr><td>${esc(f.url)}</td><td>${f.status ?? ''}</td><td>${esc(f.message)}</td><td>${esc(f.sitemap ?? '')}</td></tr>`,
      )
      .join('\n');
    return `<section id="${code}" data-sev="${rule.severity}">
<h2><span class="sev ${rule.severity}">${rule.severity}</span> ${esc(code)}: ${list.length}</h2>
<p>${esc(rule.summary)}</p><p class="fix">Fix: ${esc(rule.fix)}</p>
<table><thead><tr><th>URL</th><th>status</th><th>finding</th><th>sitemap</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Audit of ${esc(r.start)}</title><style>${STYLE}</style></head><body>
<h1>Audit of ${esc(r.start)}</h1>
<p>Sitemaps: ${r.sitemaps.map(esc).join(', ')}. ${c.crawled} URLs crawled, ${c.inSitemaps} in the sitemaps. <span class="error">${c.error} errors</span>, <span class="warning">${c.warning} warnings</span>, <span class="info">${c.info} notes</span>. Generated ${esc(r.generatedAt.toISOString())}.</p>
${r.crawlReport === undefined ? '' : `<p>The crawl this audit judged: <a href="${esc(r.crawlReport)}">${esc(r.crawlReport)}</a>.</p>\n`}${bars.length === 0 ? '<p>No finding: the sitemaps and the site agree.</p>' : `<h2>Findings by code</h2>${barChart(bars, { label: 'findings by code' })}`}
${times.length === 0 ? '' : `<h2>Response times</h2>${barChart(times, { label: 'response-time percentiles in milliseconds' })}`}
<div class="filters"><label>Filter <input id="q" type="search" placeholder="URL or text"></label>
${(['error', 'warning', 'info'] as const).map((s) => `<label><input type="checkbox" data-sev="${s}" checked> ${s}</label>`).join(' ')}</div>
${sections.join('\n')}
<script>${SCRIPT}</script>
</body></html>
`;
}
