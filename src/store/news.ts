/**
 * The news window in a store build (issue 12): a news entry published before the window loses its
 * `<news:news>` block at build time, as `generate` drops it (writer/news-window.ts), and the URL
 * stays. The store keeps the entry as imported (with its block); what depends on the build's time
 * is decided here.
 *
 * An entry crosses the window without any import touching it, so the store keeps, per file, the
 * time its next news entry falls out of the window (`due`: the oldest publication date among the
 * blocks it published, in epoch milliseconds). A build rewrites a file whose `due` is before its
 * cutoff, and only those: the other files keep their bytes and their index lastmod. Dropping a
 * block only shortens a file, so every budget the shards keep (URLs, bytes, 1,000 news) holds.
 */
import type { SitemapEntry } from '../core/entry.js';
import { type Extension, urlXml } from '../writer/serialize.js';
import type { FragmentRow } from './backend.js';

/** Per file id: when its next news block falls out of the window. */
export type NewsDue = Record<string, number>;

export function parseDue(value: string | undefined): NewsDue {
  return value === undefined ? {} : (JSON.parse(value) as NewsDue);
}

/** Applies the window to the entries of the files one build writes. */
export class StoreNewsWindow {
  /** Blocks before this time (epoch ms) are dropped; -Infinity when the window is off. */
  readonly cutoff: number;
  /** Blocks dropped in the files this build wrote. */
  dropped = 0;
  readonly #declared: ReadonlySet<Extension>;
  #due = Number.POSITIVE_INFINITY;

  /** `windowMs` 0 keeps every block. */
  constructor(buildTime: Date, windowMs: number, declared: ReadonlySet<Extension>) {
    this.cutoff = windowMs === 0 ? Number.NEGATIVE_INFINITY : buildTime.getTime() - windowMs;
    this.#declared = declared;
  }

  /** Whether a file recorded with `due` holds a block that has fallen out of the window since. */
  crossed(due: number | undefined): boolean {
    return due !== undefined && due < this.cutoff;
  }

  /** Starts a file. */
  begin(): void {
    this.#due = Number.POSITIVE_INFINITY;
  }

  /** The file's `due` once its entries are written (undefined: no block left to expire). */
  end(): number | undefined {
    return Number.isFinite(this.#due) ? this.#due : undefined;
  }

  /**
   * The text of a news row as this build publishes it: its stored fragment while its block is
   * inside the window, else the entry serialised again without the block.
   */
  text(r: FragmentRow, fragment: string): { text: string; len: number } {
    if (r.news !== 1 || r.entry === null) return { text: fragment, len: r.len };
    const stored = JSON.parse(r.entry) as Omit<SitemapEntry, 'loc'>;
    const date = stored.news?.publication_date;
    // Normalised at import (a W3C Datetime with a zone, or a plain date: UTC midnight).
    const ms = date === undefined ? Number.NaN : Date.parse(date);
    if (!(ms < this.cutoff)) {
      if (ms < this.#due) this.#due = ms;
      return { text: fragment, len: r.len };
    }
    this.dropped++;
    const { news: _old, ...rest } = stored;
    const e: SitemapEntry =
      r.lastmod === null ? { loc: r.loc, ...rest } : { loc: r.loc, ...rest, lastmod: r.lastmod };
    const text = urlXml(e, this.#declared);
    return { text, len: Buffer.byteLength(text) };
  }
}
