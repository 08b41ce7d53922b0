/** How bad a finding is. `error` breaks the protocol; `warning` hurts quality; `info` is advice. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * A finding about content (a record, a sitemap, a page). Findings never throw: the library hands
 * them to `onDiagnostic` and collects them; the CLI prints them and picks the exit code.
 * `code` is a stable kebab-case rule name shared by the writer, parser and validator.
 */
export interface Diagnostic {
  code: string;
  severity: Severity;
  message: string;
  /** One-line fix, when the rule has one. */
  fix?: string;
  /** The page URL the finding is about. */
  url?: string;
  /** The sitemap (URL or path) or input file the finding is in. */
  sitemap?: string;
  /** 1-based line in `sitemap`. */
  line?: number;
  /** 1-based column in `sitemap`. */
  column?: number;
  /** 1-based record number in the input (writer input). */
  record?: number;
  /** The entry field at fault, for example `lastmod` or `videos[0].title`. */
  field?: string;
}

/** The documentation of one rule: its default severity, what it means, and the fix. */
export interface RuleInfo {
  severity: Severity;
  summary: string;
  fix: string;
}

export type DiagnosticHandler = (diagnostic: Diagnostic) => void;

/** Formats a diagnostic as one line for people: `file:line:col: severity code: message`. */
export function formatDiagnostic(d: Diagnostic): string {
  let where = d.sitemap ?? '';
  if (d.line !== undefined) where += `:${d.line}${d.column !== undefined ? `:${d.column}` : ''}`;
  if (d.record !== undefined && d.line === undefined) where += `${where ? ' ' : ''}record ${d.record}`;
  const field = d.field ? ` (${d.field})` : '';
  const fix = d.fix ? ` Fix: ${d.fix}` : '';
  return `${where ? `${where}: ` : ''}${d.severity} ${d.code}${field}: ${d.message}${fix}`;
}
