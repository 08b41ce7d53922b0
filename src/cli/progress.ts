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

  /** Draws a line its caller composed (throttled like {@link update}). */
  show(line: string): void {
    if (!this.#enabled) return;
    const now = Date.now();
    if (now - this.#last < 100) return;
    this.#last = now;
    this.#write(`${this.#label} ${line}`);
  }

  #write(line: string): void {
    const cols = this.#stream.columns ?? 100;
    this.#stream.write(`\r\x1b[K${line.slice(0, cols - 1)}`);
    this.#drawn = true;
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
    this.#write(line);
  }

  /** Clears the line so that the summary that follows starts clean. */
  stop(): void {
    if (this.#drawn) this.#stream.write('\r\x1b[K');
    this.#drawn = false;
  }
}

/** One observation of a long run: when (ms, on any clock) and how many items were done by then. */
export interface RateSample {
  at: number;
  done: number;
}

export interface RateEstimate {
  /** Items a second over the window; 0 until two samples span some time. */
  rate: number;
  /** Seconds the remaining items take at `rate`; undefined while the rate is 0. */
  etaSeconds: number | undefined;
}

/** How far back the rate looks: long enough to smooth bursts, short enough to follow a slowdown. */
export const RATE_WINDOW_MS = 10_000;

/**
 * The rate over the last `windowMs` of `samples` (in time order) and the time `remaining` items
 * take at it. Only differences between samples count, so a resumed run that starts with thousands
 * done shows the rate of this run, and a queue that grows or shrinks moves the ETA. The span
 * starts at the last sample at or before the window's start (so a window is never shorter than
 * `windowMs` once the run is older than that), or at the first sample.
 */
export function estimateRate(
  samples: readonly RateSample[],
  remaining: number,
  windowMs: number = RATE_WINDOW_MS,
): RateEstimate {
  const last = samples.at(-1);
  if (last === undefined) return { rate: 0, etaSeconds: undefined };
  let first = samples[0]!;
  for (let i = samples.length - 1; i >= 0; i--) {
    const s = samples[i]!;
    first = s;
    if (s.at <= last.at - windowMs) break;
  }
  const span = (last.at - first.at) / 1000;
  const rate = span > 0 ? Math.max(0, last.done - first.done) / span : 0;
  return { rate, etaSeconds: rate > 0 ? Math.max(0, remaining) / rate : undefined };
}

/** The samples {@link estimateRate} needs, and no more: older ones are dropped as new ones come. */
export class RateWindow {
  readonly #windowMs: number;
  readonly #samples: RateSample[] = [];

  constructor(windowMs: number = RATE_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  add(sample: RateSample): void {
    const s = this.#samples;
    s.push(sample);
    // Keep one sample at or before the window's start: it is where the span begins.
    const start = sample.at - this.#windowMs;
    let keepFrom = 0;
    for (let i = 0; i < s.length; i++) {
      if (s[i]!.at <= start) keepFrom = i;
      else break;
    }
    if (keepFrom > 0) s.splice(0, keepFrom);
  }

  estimate(remaining: number): RateEstimate {
    return estimateRate(this.#samples, remaining, this.#windowMs);
  }
}

/** `42s`, `3m 05s`, `1h 02m`; `?` while unknown. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
