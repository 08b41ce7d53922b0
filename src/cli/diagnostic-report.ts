import type { Diagnostic } from '../core/diagnostics.js';
import { formatDiagnostic } from '../core/diagnostics.js';
import { enNumber } from '../core/en-number.js';
import type { CliContext } from './context.js';

/** Text: at most this many diagnostics of one code are printed; the rest are counted. */
const PER_CODE = 20;
/** JSON: at most this many diagnostics are listed; the rest are counted. */
const IN_JSON = 1000;

/**
 * The diagnostics of one command run, the same in every mode: as text on stderr while they come
 * (capped per code, then counted), or gathered for the JSON document (capped, then counted), so a
 * failure reports every finding that led to it, not only the first.
 */
export class DiagnosticReport {
  readonly #json: boolean;
  readonly #ctx: CliContext;
  readonly #perCode = new Map<string, number>();
  readonly #listed: Diagnostic[] = [];
  #omitted = 0;
  #finished = false;

  constructor(json: boolean, ctx: CliContext) {
    this.#json = json;
    this.#ctx = ctx;
  }

  add(d: Diagnostic): void {
    const n = (this.#perCode.get(d.code) ?? 0) + 1;
    this.#perCode.set(d.code, n);
    if (this.#json) {
      if (this.#listed.length < IN_JSON) this.#listed.push(d);
      else this.#omitted++;
    } else if (n <= PER_CODE) {
      this.#ctx.stderr.write(`${formatDiagnostic(d)}\n`);
    }
  }

  /** Text: says how many of each code were not printed. Once; nothing in JSON mode. */
  finish(): void {
    if (this.#finished || this.#json) return;
    this.#finished = true;
    for (const [code, n] of this.#perCode) {
      if (n > PER_CODE) this.#ctx.stderr.write(`... and ${enNumber(n - PER_CODE)} more ${code}\n`);
    }
  }

  /** The fields the JSON document carries: the diagnostics, and how many more there were. */
  json(): { diagnostics: Diagnostic[]; diagnosticsOmitted: number } {
    return { diagnostics: this.#listed, diagnosticsOmitted: this.#omitted };
  }
}
