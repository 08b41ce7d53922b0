/**
 * The news window (issue 12): Google News reads a news sitemap's articles of the last two days
 * only, so at build time an entry published before the window loses its `<news:news>` block. The
 * URL itself stays in the set (it is still a page of the site). One info finding at the end counts
 * them and names the first few; nothing is held per entry, so memory stays flat.
 */
import { duration } from '../core/checks.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { SitemapEntry } from '../core/entry.js';
import { NEWS_MAX_AGE_DAYS } from '../core/limits.js';

/** Google's window: two days. */
export const DEFAULT_NEWS_WINDOW_MS: number = NEWS_MAX_AGE_DAYS * 86_400_000;

/** How many of the dropped entries the finding names. */
const NAMED = 3;

/**
 * `newsWindow` resolved to milliseconds, 0 meaning off: a duration (`'2d'`, `'48h'`, or a number of
 * milliseconds), `false`, `0` or `'off'` to keep every news block.
 */
export function resolveNewsWindow(value: unknown): number {
  if (value === false || value === 'off') return 0;
  return duration('newsWindow', value, DEFAULT_NEWS_WINDOW_MS, { unit: 'ms' });
}

/** Takes the news block off entries published before the window; counts them for the finding. */
export class NewsWindow {
  readonly #cutoff: number;
  readonly #windowMs: number;
  /** Dropped blocks. */
  dropped = 0;
  readonly #named: string[] = [];
  // Sites repeat publication dates (a day's worth of articles): the last one parsed is remembered.
  #lastDate = '';
  #lastOld = false;

  /** `windowMs` 0 keeps every block. */
  constructor(buildTime: Date, windowMs: number) {
    this.#windowMs = windowMs;
    this.#cutoff = windowMs === 0 ? Number.NEGATIVE_INFINITY : buildTime.getTime() - windowMs;
  }

  /** The entry as it is to be written: without its news block when that is older than the window. */
  apply(e: SitemapEntry): SitemapEntry {
    const news = e.news;
    if (news === undefined || this.#windowMs === 0) return e;
    const date = news.publication_date;
    if (date !== this.#lastDate) {
      // Normalised already (W3C Datetime with a zone, or a plain date: UTC midnight, as the validator reads it).
      this.#lastOld = Date.parse(date) < this.#cutoff;
      this.#lastDate = date;
    }
    if (!this.#lastOld) return e;
    this.dropped++;
    if (this.#named.length < NAMED) this.#named.push(e.loc);
    const { news: _old, ...rest } = e;
    return rest;
  }

  /** The info finding of the run, when any block was dropped. */
  finding(): Diagnostic | undefined {
    if (this.dropped === 0) return undefined;
    const n = this.dropped;
    const more = n > this.#named.length ? ', …' : '';
    return {
      code: 'news-outside-window',
      severity: 'info',
      message: `${n.toLocaleString('en-US')} news entr${n === 1 ? 'y was' : 'ies were'} published before the news window (${windowText(this.#windowMs)} before the build time ${new Date(this.#cutoff + this.#windowMs).toISOString().slice(0, 19)}Z) and lost ${n === 1 ? 'its <news:news> block; the URL stays' : 'their <news:news> blocks; the URLs stay'} in the sitemap: ${this.#named.join(', ')}${more}`,
      field: 'news',
    };
  }
}

function windowText(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} day${ms === 86_400_000 ? '' : 's'}`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hour${ms === 3_600_000 ? '' : 's'}`;
  return `${Math.round(ms / 1000).toLocaleString('en-US')} s`;
}
