/**
 * A progress line for long work, drawn on stderr only when stderr is a terminal (never in pipes,
 * CI logs or tests). Redraws at most ten times a second.
 */
export class Progress {
  readonly #label: string;
  readonly #total: number | undefined;
  readonly #stream: NodeJS.WriteStream;
  readonly #enabled: boolean;
  readonly #start = Date.now();
  #last = 0;
  #done = 0;
  #drawn = false;

  constructor(
    label: string,
    options: { total?: number; stream?: NodeJS.WriteStream; enabled?: boolean } = {},
  ) {
    this.#label = label;
    this.#total = options.total;
    this.#stream = options.stream ?? process.stderr;
    this.#enabled = options.enabled ?? this.#stream.isTTY === true;
  }

  update(done: number, extra = ''): void {
    this.#done = done;
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    this.#draw(extra);
  }

  #draw(extra: string): void {
    const secs = Math.max((Date.now() - this.#start) / 1000, 0.001);
    const rate = this.#done / secs;
    let line = `${this.#label} ${this.#done.toLocaleString('en-US')}`;
    if (this.#total !== undefined && this.#total > 0) {
      const frac = Math.min(this.#done / this.#total, 1);
      const width = 24;
      const fill = Math.round(frac * width);
      const eta = rate > 0 ? Math.max(0, (this.#total - this.#done) / rate) : 0;
      line = `${this.#label} [${'#'.repeat(fill)}${'-'.repeat(width - fill)}] ${(frac * 100).toFixed(0)}% ${this.#done.toLocaleString('en-US')}/${this.#total.toLocaleString('en-US')} ETA ${eta.toFixed(0)}s`;
    }
    line += ` ${Math.round(rate).toLocaleString('en-US')}/s${extra ? ` ${extra}` : ''}`;
    const cols = this.#stream.columns ?? 100;
    this.#stream.write(`\r\x1b[K${line.slice(0, cols - 1)}`);
    this.#drawn = true;
  }

  /** Clears the line so that the summary that follows starts clean. */
  stop(): void {
    if (this.#drawn) this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }
}
