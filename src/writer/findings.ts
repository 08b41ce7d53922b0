import type { Diagnostic, DiagnosticHandler } from '../core/diagnostics.js';
import type { EntryProblem } from '../core/normalize.js';
import type { RecordOrigin } from './batches.js';
import type { OnInvalid } from './options.js';

/** A run's findings: counted by severity, the first 1,000 kept, every one passed on. */
export class Findings {
  readonly diagnostics: Diagnostic[] = [];
  readonly counts = { error: 0, warning: 0, info: 0 };
  /** Records found invalid (and, under `skip`, left out). */
  invalid = 0;
  skipped = 0;
  /** The first error, for the message of a failed run. */
  firstProblem: string | undefined;
  readonly #skip: boolean;
  readonly #onDiagnostic: DiagnosticHandler | undefined;

  constructor(onInvalid: OnInvalid, onDiagnostic: DiagnosticHandler | undefined) {
    this.#skip = onInvalid !== 'fail';
    this.#onDiagnostic = onDiagnostic;
  }

  report(d: Diagnostic): void {
    this.counts[d.severity]++;
    if (this.diagnostics.length < 1000) this.diagnostics.push(d);
    this.#onDiagnostic?.(d);
  }

  problem(
    p: EntryProblem,
    severity: 'error' | 'warning',
    record: number,
    origin: RecordOrigin | undefined,
    loc?: string,
  ): void {
    const d: Diagnostic = { code: p.code, severity, message: p.message, record, field: p.field };
    if (origin?.file !== undefined) d.sitemap = origin.file;
    if (origin?.line !== undefined) d.line = origin.line;
    if (loc !== undefined && loc !== '') d.url = loc;
    if (severity === 'error' && this.firstProblem === undefined) {
      const where = origin?.file
        ? `${origin.file}${origin.line ? `:${origin.line}` : ''}`
        : `record ${record}`;
      this.firstProblem = `${where} (${p.field || 'record'}): ${p.message}`;
    }
    this.report(d);
  }

  invalidRecord(
    problems: readonly EntryProblem[],
    record: number,
    origin: RecordOrigin | undefined,
    loc?: string,
  ): void {
    for (const p of problems) this.problem(p, 'error', record, origin, loc);
    this.invalid++;
    if (this.#skip) this.skipped++;
  }

  /** After the first invalid record under `fail`, nothing more is written: the rest is only checked. */
  get writing(): boolean {
    return this.#skip || this.invalid === 0;
  }
}
