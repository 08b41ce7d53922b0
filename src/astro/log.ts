/**
 * What Astro's log shows: the findings (capped per severity, so that a site of 50,000 `noindex`
 * pages does not drown the build output) and one summary line of what was written.
 */
import { relative } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { WriteSitemapsResult } from '../writer/write-sitemaps.js';

/** The part of Astro's `AstroIntegrationLogger` used here. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Findings shown per severity; the rest are counted. */
export const SHOWN_PER_SEVERITY = 20;

/** One line: `code url: message (file)`, the file relative to the build output. */
export function diagnosticLine(d: Diagnostic, root: string): string {
  const file =
    d.sitemap === undefined ? '' : ` (${d.sitemap.startsWith('/') ? relative(root, d.sitemap) : d.sitemap})`;
  const field = d.field === undefined ? '' : ` [${d.field}]`;
  return `${d.code}${d.url === undefined ? '' : ` ${d.url}`}${field}: ${d.message}${file}`;
}

export function logDiagnostics(logger: Logger, diagnostics: readonly Diagnostic[], root: string): void {
  for (const severity of ['error', 'warning', 'info'] as const) {
    const all = diagnostics.filter((d) => d.severity === severity);
    const say = (m: string): void =>
      severity === 'error' ? logger.error(m) : severity === 'warning' ? logger.warn(m) : logger.info(m);
    for (const d of all.slice(0, SHOWN_PER_SEVERITY)) say(diagnosticLine(d, root));
    if (all.length > SHOWN_PER_SEVERITY)
      say(
        `… and ${(all.length - SHOWN_PER_SEVERITY).toLocaleString('en-US')} more ${severity === 'info' ? 'notes' : `${severity}s`}`,
      );
  }
}

const en = (n: number): string => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`): string => `${en(n)} ${n === 1 ? one : many}`;

/** `sitemap-index.xml and 2 sitemaps written: 60,000 URLs; 3 left out by filter` */
export function summary(
  r: WriteSitemapsResult,
  extra: { filtered: number; dropped: number; root: string; robots: string | undefined },
): string {
  const children = r.files.filter((f) => f.kind !== 'index').length;
  const entry = relative(extra.root, r.entry.path);
  const parts = [
    r.entry.kind === 'index'
      ? `${entry} and ${plural(children, 'sitemap')} written: ${plural(r.urls, 'URL')}`
      : `${entry} written: ${plural(r.urls, 'URL')}`,
  ];
  if (extra.filtered > 0) parts.push(`${en(extra.filtered)} left out by filter`);
  if (extra.dropped > 0) parts.push(`${en(extra.dropped)} dropped by serialize`);
  if (r.skipped > 0) parts.push(`${plural(r.skipped, 'invalid URL')} skipped`);
  if (extra.robots !== undefined) parts.push(`robots.txt names ${entry}`);
  return parts.join('; ');
}
