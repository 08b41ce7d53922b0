/**
 * Every finding of a run passes through one collector: it applies the rule table's severity and
 * the user's overrides, drops disabled rules, counts every occurrence, and keeps a bounded sample
 * (so that a million-URL tree with a million duplicates stays within memory).
 */
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import { RULES } from './rules.js';
import type { RuleCount, RuleSetting } from './types.js';

/** Sitemaps counted apart at most; the rest are counted under one key. */
const MAX_SITEMAP_KEYS = 10_000;
/** The key of findings that belong to no sitemap (robots.txt, the site as a whole). */
export const NO_SITEMAP = '';

interface Tally {
  severity: Severity;
  count: number;
  kept: number;
}

// The parser reports a code at most 100 times per document, then says how many there were.
const SUPPRESSED = /^([a-z0-9-]+) occurred ([\d,]+) times; only the first (\d+) were reported/;

export class Collector {
  readonly diagnostics: Diagnostic[] = [];
  readonly counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  readonly #settings: ReadonlyMap<string, RuleSetting>;
  readonly #tallies = new Map<string, Tally>();
  readonly #bySitemap = new Map<string, Map<string, number>>();
  readonly #maxDiagnostics: number;
  readonly #maxPerRule: number;
  readonly #onDiagnostic: ((d: Diagnostic) => void) | undefined;

  constructor(options: {
    settings: ReadonlyMap<string, RuleSetting>;
    maxDiagnostics: number;
    maxPerRule: number;
    onDiagnostic?: ((d: Diagnostic) => void) | undefined;
  }) {
    this.#settings = options.settings;
    this.#maxDiagnostics = options.maxDiagnostics;
    this.#maxPerRule = options.maxPerRule;
    this.#onDiagnostic = options.onDiagnostic;
  }

  /** The severity a code is reported with, or undefined when it is off. */
  severityOf(code: string, fallback: Severity = 'warning'): Severity | undefined {
    const s = this.#settings.get(code);
    if (s === 'off') return undefined;
    return s ?? RULES[code]?.severity ?? fallback;
  }

  /** Whether a code is reported at all (cheap checks can be skipped for disabled rules). */
  enabled(code: string): boolean {
    return this.#settings.get(code) !== 'off';
  }

  /** Reports a finding; `d.severity` and `d.fix` are replaced by the rule table's (and overrides). */
  add(d: Diagnostic): void {
    const severity = this.severityOf(d.code, d.severity);
    if (severity === undefined) return;
    const rule = RULES[d.code];
    const out: Diagnostic = severity === d.severity ? d : { ...d, severity };
    if (out.fix === undefined && rule !== undefined) out.fix = rule.fix;
    if (d.code === 'diagnostics-suppressed') this.#addSuppressed(d.message, d.sitemap ?? NO_SITEMAP);
    const tally = this.#tally(d.code, severity);
    tally.count++;
    this.#countIn(d.sitemap ?? NO_SITEMAP, d.code, 1);
    this.counts[severity]++;
    if (tally.kept < this.#maxPerRule && this.diagnostics.length < this.#maxDiagnostics) {
      tally.kept++;
      this.diagnostics.push(out);
    }
    this.#onDiagnostic?.(out);
  }

  /** Counts the occurrences the parser did not itemise, under their own code. */
  #addSuppressed(message: string, sitemap: string): void {
    const m = SUPPRESSED.exec(message);
    if (m === null) return;
    const code = m[1]!;
    const extra = Number(m[2]!.replaceAll(',', '')) - Number(m[3]);
    const severity = this.severityOf(code);
    if (severity === undefined || !(extra > 0)) return;
    this.#tally(code, severity).count += extra;
    this.counts[severity] += extra;
    this.#countIn(sitemap, code, extra);
  }

  #countIn(sitemap: string, code: string, n: number): void {
    let m = this.#bySitemap.get(sitemap);
    if (m === undefined) {
      if (this.#bySitemap.size >= MAX_SITEMAP_KEYS) {
        sitemap = '(other sitemaps)';
        m = this.#bySitemap.get(sitemap);
      }
      if (m === undefined) {
        m = new Map();
        this.#bySitemap.set(sitemap, m);
      }
    }
    m.set(code, (m.get(code) ?? 0) + n);
  }

  /** Occurrences per sitemap and code (`''` for findings about no sitemap). */
  perSitemap(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const [sitemap, m] of this.#bySitemap) out[sitemap] = Object.fromEntries(m);
    return out;
  }

  #tally(code: string, severity: Severity): Tally {
    let t = this.#tallies.get(code);
    if (t === undefined) {
      t = { severity, count: 0, kept: 0 };
      this.#tallies.set(code, t);
    }
    return t;
  }

  /** One row per rule that fired: errors, then warnings, then infos; most frequent first. */
  rules(): RuleCount[] {
    const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
    return [...this.#tallies]
      .filter(([, t]) => t.count > 0)
      .map(([code, t]) => ({
        code,
        severity: t.severity,
        count: t.count,
        summary: RULES[code]?.summary ?? '',
        fix: RULES[code]?.fix ?? '',
      }))
      .sort(
        (a, b) => rank[a.severity] - rank[b.severity] || b.count - a.count || a.code.localeCompare(b.code),
      );
  }
}
