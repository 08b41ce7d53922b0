/**
 * The report for people: findings grouped by rule (errors first), each with its count, the first
 * examples and the fix; colour only when asked (the CLI asks on a TTY without NO_COLOR).
 */
import type { Diagnostic, Severity } from '../../core/diagnostics.js';
import { enNumber } from '../../core/en-number.js';
import type { ValidationResult } from '../types.js';

/** Options of {@link formatText}. */
export interface TextReportOptions {
  /** ANSI colours. @default false */
  color?: boolean;
  /** Examples shown per rule. @default 3 */
  examples?: number;
}

const COLORS: Record<Severity | 'dim' | 'bold', string> = {
  error: '\x1b[31m',
  warning: '\x1b[33m',
  info: '\x1b[36m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
};
const HEADINGS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Notes' };

function n(x: number): string {
  return enNumber(x);
}

function plural(x: number, one: string, many = `${one}s`): string {
  return `${n(x)} ${x === 1 ? one : many}`;
}

/** `sitemap:line` of a finding, or its URL when it belongs to no sitemap. */
export function whereOf(d: Diagnostic): string {
  if (d.sitemap === undefined || d.sitemap === '') return d.url ?? '';
  return d.line === undefined ? d.sitemap : `${d.sitemap}:${d.line}`;
}

/** The headline counts: `2 errors, 1 warning, 3 notes`. */
export function countsLine(r: ValidationResult): string {
  const s = r.summary;
  return `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'note')}`;
}

/** The run in one line: sources, sitemaps, URLs, robots.txt, live pages. */
export function scopeLine(r: ValidationResult): string {
  const s = r.summary;
  const parts = [
    `${plural(s.sitemaps, 'sitemap')}${r.settings.recursive ? ' (recursive)' : ''}`,
    plural(s.urls, 'URL'),
  ];
  if (r.settings.robots !== undefined) parts.push(`robots.txt ${r.settings.robots} for ${r.settings.agent}`);
  if (r.settings.live) parts.push(`${plural(s.checked, 'page')} fetched`);
  return parts.join(', ');
}

export function formatText(r: ValidationResult, options: TextReportOptions = {}): string {
  const color = options.color === true;
  const paint = (c: keyof typeof COLORS, s: string): string => (color ? `${COLORS[c]}${s}\x1b[0m` : s);
  const examples = options.examples ?? 3;
  const byCode = new Map<string, Diagnostic[]>();
  for (const d of r.diagnostics) {
    const list = byCode.get(d.code);
    if (list === undefined) byCode.set(d.code, [d]);
    else if (list.length < examples) list.push(d);
  }
  const lines: string[] = [paint('bold', `sitemapkit validate ${r.sources.join(' ')}`), `  ${scopeLine(r)}`];
  let current: Severity | undefined;
  for (const rule of r.rules) {
    if (rule.severity !== current) {
      current = rule.severity;
      lines.push('', paint('bold', HEADINGS[current]));
    }
    lines.push(
      `  ${paint(rule.severity, rule.severity.padEnd(7))} ${paint('bold', rule.code)}  ×${n(rule.count)}  ${rule.summary}`,
    );
    const shown = byCode.get(rule.code) ?? [];
    for (const d of shown) {
      const where = whereOf(d);
      const url = d.url !== undefined && !d.message.includes(d.url) && where !== d.url ? ` (${d.url})` : '';
      lines.push(`      ${where === '' ? '' : `${where}: `}${d.message}${url}`);
    }
    if (rule.count > shown.length)
      lines.push(paint('dim', `      … and ${n(rule.count - shown.length)} more`));
    if (rule.fix !== '') lines.push(paint('dim', `      fix: ${rule.fix}`));
  }
  lines.push('');
  const verdict = r.summary.valid ? paint('bold', 'valid') : paint('error', 'invalid');
  lines.push(`${verdict}: ${countsLine(r)}`);
  return `${lines.join('\n')}\n`;
}
