import type { Diagnostic, DiagnosticHandler } from '../core/diagnostics.js';
import { PARSER_RULES, type ParserRuleCode } from './rules.js';

/** Where in a document a finding is. */
export interface Where {
  line?: number;
  column?: number;
  url?: string;
  field?: string;
}

/** Each code is reported at most this many times per document; the rest are counted. */
export const MAX_PER_CODE = 100;

/**
 * Turns findings about one document into {@link Diagnostic}s: severity and fix from
 * {@link PARSER_RULES}, the document's name, at most {@link MAX_PER_CODE} per code.
 */
export class DocumentReporter {
  readonly sitemap: string | undefined;
  readonly #sink: DiagnosticHandler;
  readonly #counts = new Map<string, number>();
  readonly #once = new Set<string>();
  errors = 0;
  warnings = 0;

  constructor(sitemap: string | undefined, sink: DiagnosticHandler) {
    this.sitemap = sitemap;
    this.#sink = sink;
  }

  report(code: ParserRuleCode, message: string, where: Where = {}): void {
    if (this.#count(code, PARSER_RULES[code].severity))
      this.#sink(makeDiagnostic(code, message, this.sitemap, where));
  }

  /** Delivers a diagnostic made elsewhere, under the same counts and limits. */
  pass(diagnostic: Diagnostic): void {
    if (this.#count(diagnostic.code, diagnostic.severity)) this.#sink(diagnostic);
  }

  /** Counts one occurrence; false once the code is over its limit. */
  #count(code: string, severity: Diagnostic['severity']): boolean {
    const n = (this.#counts.get(code) ?? 0) + 1;
    this.#counts.set(code, n);
    if (severity === 'error') this.errors++;
    else if (severity === 'warning') this.warnings++;
    return n <= MAX_PER_CODE;
  }

  /** Reports `code` only the first time `key` (default: the code) is seen in this document. */
  once(code: ParserRuleCode, message: string, where: Where = {}, key: string = code): void {
    if (this.#once.has(key)) return;
    this.#once.add(key);
    this.report(code, message, where);
  }

  /** Reports the codes that went over {@link MAX_PER_CODE}. Call once, at the end of the document. */
  finish(): void {
    for (const [code, n] of this.#counts) {
      if (n > MAX_PER_CODE) {
        this.#sink(
          makeDiagnostic(
            'diagnostics-suppressed',
            `${code} occurred ${n.toLocaleString('en-US')} times; only the first ${MAX_PER_CODE} were reported`,
            this.sitemap,
            {},
          ),
        );
      }
    }
  }
}

/** A parser diagnostic with the rule's severity and fix. */
export function makeDiagnostic(
  code: ParserRuleCode,
  message: string,
  sitemap: string | undefined,
  where: Where,
): Diagnostic {
  const rule = PARSER_RULES[code];
  const d: Diagnostic = { code, severity: rule.severity, message, fix: rule.fix };
  if (sitemap !== undefined) d.sitemap = sitemap;
  if (where.line !== undefined) d.line = where.line;
  if (where.column !== undefined) d.column = where.column;
  if (where.url !== undefined) d.url = where.url;
  if (where.field !== undefined) d.field = where.field;
  return d;
}
