/**
 * The report for machines: one JSON document. Scripts rely on `diagnostics[]` (each with `code`,
 * `severity`, `message`, `fix`, and `url`, `sitemap`, `line` where they apply) and `summary`:
 * keep those stable.
 */
import type { Diagnostic } from '../../core/diagnostics.js';
import type { ValidationResult } from '../types.js';

/** The version of the JSON shape; raised only for a change that breaks readers. */
export const JSON_REPORT_VERSION = 1;

function ordered(d: Diagnostic): Record<string, unknown> {
  // A fixed key order, so that reports diff well.
  const out: Record<string, unknown> = { code: d.code, severity: d.severity, message: d.message };
  if (d.fix !== undefined) out['fix'] = d.fix;
  if (d.url !== undefined) out['url'] = d.url;
  if (d.sitemap !== undefined) out['sitemap'] = d.sitemap;
  if (d.line !== undefined) out['line'] = d.line;
  if (d.column !== undefined) out['column'] = d.column;
  if (d.field !== undefined) out['field'] = d.field;
  return out;
}

export function formatJson(r: ValidationResult): string {
  return `${JSON.stringify(
    {
      version: JSON_REPORT_VERSION,
      valid: r.summary.valid,
      sources: r.sources,
      summary: r.summary,
      settings: r.settings,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      rules: r.rules,
      sitemaps: r.sitemaps,
      perSitemap: r.perSitemap,
      stats: r.stats,
      diagnostics: r.diagnostics.map(ordered),
    },
    null,
    2,
  )}\n`;
}
