/**
 * The delta feed (issue 12): the newest N URLs of a site with their times, as Atom 1.0 (RFC 4287)
 * or RSS 2.0, beside the full sitemap. Search engines read RSS and Atom as sitemaps, so a small
 * feed of what is new is fetched often while the full set is fetched rarely.
 *
 * The newest N are kept in a bounded min-heap while entries stream by (memory: N items, whatever
 * the size of the set). Order and content depend only on the items, never on the clock or the
 * input order, so two builds of the same input give the same bytes.
 */
import { createHash } from 'node:crypto';
import type { SitemapEntry } from '../core/entry.js';
import { formatUtc } from '../core/lastmod.js';
import { escapeAttr, escapeUri, escapeXml } from '../core/xml.js';
import type { FeedItem } from './feed-options.js';
import { XML_DECLARATION } from './serialize.js';

/** The feed's file name in the output folder. */
export const FEED_NAME = 'feed.xml';

interface Kept {
  ms: number;
  loc: string;
  title: string | undefined;
}

/** Whether `a` is older than `b` (ties: the larger loc counts as older, so the order is total). */
function older(a: Kept, b: Kept): boolean {
  return a.ms < b.ms || (a.ms === b.ms && a.loc > b.loc);
}

/** The newest `size` items seen, by time then loc. */
export class NewestItems {
  readonly #size: number;
  /** A min-heap: the oldest kept item at the root. */
  readonly #heap: Kept[] = [];
  #lastTime = '';
  #lastMs = Number.NaN;

  constructor(size: number) {
    this.#size = size;
  }

  /** Offers an item; `ms` is its time in epoch milliseconds. */
  offer(ms: number, loc: string, title: string | undefined): void {
    if (!Number.isFinite(ms)) return;
    const heap = this.#heap;
    if (heap.length < this.#size) {
      heap.push({ ms, loc, title });
      this.#up(heap.length - 1);
      return;
    }
    // Most entries of a large set are older than the oldest kept: compared before anything is made.
    const root = heap[0]!;
    if (ms < root.ms || (ms === root.ms && loc >= root.loc)) return;
    heap[0] = { ms, loc, title };
    this.#down(0);
  }

  /** Offers a build entry: its lastmod, else its news publication date; entries with neither are not offered. */
  offerEntry(e: SitemapEntry): void {
    const time = e.lastmod ?? e.news?.publication_date;
    if (time === undefined) return;
    // Sets repeat dates (one day's pages share one): the last one parsed is remembered.
    if (time !== this.#lastTime) {
      this.#lastTime = time;
      this.#lastMs = Date.parse(time);
    }
    this.offer(this.#lastMs, e.loc, e.title ?? e.news?.title);
  }

  /** Offers a {@link FeedItem}. */
  offerItem(item: FeedItem): void {
    const ms = item.time instanceof Date ? item.time.getTime() : Date.parse(item.time);
    this.offer(ms, item.loc, item.title);
  }

  /** The kept items, newest first. */
  sorted(): Kept[] {
    return [...this.#heap].sort((a, b) => (older(a, b) ? 1 : older(b, a) ? -1 : 0));
  }

  #up(i: number): void {
    const h = this.#heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!older(h[i]!, h[p]!)) return;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  #down(i: number): void {
    const h = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && older(h[l]!, h[m]!)) m = l;
      if (r < h.length && older(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

export interface FeedText {
  /** The feed's XML. */
  text: string;
  /** Its UTF-8 bytes. */
  data: Uint8Array;
  sha256: string;
  /** URLs it lists. */
  items: number;
}

export interface FeedDocumentOptions {
  format: 'atom' | 'rss';
  /** The public URL of the output folder (the feed's own URL is this plus `feed.xml`). */
  baseUrl: string;
  /** @default the host of baseUrl */
  title?: string | undefined;
  /** The feed's time when it lists nothing (the build time). */
  emptyTime: Date;
}

/** Serialises the kept items (newest first) as an Atom or RSS document. */
export function feedDocument(items: NewestItems, o: FeedDocumentOptions): FeedText {
  const kept = items.sorted();
  const site = new URL(o.baseUrl);
  const title = o.title ?? site.host;
  const self = o.baseUrl + FEED_NAME;
  // The feed's time is its newest item's: the same items give the same bytes on any day.
  const updated = new Date(kept[0]?.ms ?? o.emptyTime.getTime());
  const lines: string[] = [XML_DECLARATION.trimEnd()];
  if (o.format === 'atom') {
    lines.push(
      '<feed xmlns="http://www.w3.org/2005/Atom">',
      `<id>${escapeUri(self)}</id>`,
      `<title>${escapeXml(title)}</title>`,
      `<updated>${atomTime(updated)}</updated>`,
      // RFC 4287 §4.1.1: a feed names an author unless every entry does.
      `<author><name>${escapeXml(site.host)}</name></author>`,
      `<link rel="self" href="${escapeAttr(self)}"/>`,
      `<link rel="alternate" href="${escapeAttr(o.baseUrl)}"/>`,
    );
    for (const k of kept) {
      lines.push(
        `<entry><id>${escapeUri(k.loc)}</id><title>${escapeXml(k.title ?? k.loc)}</title><updated>${atomTime(new Date(k.ms))}</updated><link rel="alternate" href="${escapeAttr(k.loc)}"/></entry>`,
      );
    }
    lines.push('</feed>');
  } else {
    lines.push(
      '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
      '<channel>',
      `<title>${escapeXml(title)}</title>`,
      `<link>${escapeUri(o.baseUrl)}</link>`,
      `<description>${escapeXml(`New and changed pages of ${site.host}`)}</description>`,
      `<atom:link rel="self" type="application/rss+xml" href="${escapeAttr(self)}"/>`,
      `<lastBuildDate>${rfc822(updated)}</lastBuildDate>`,
    );
    for (const k of kept) {
      lines.push(
        `<item><title>${escapeXml(k.title ?? k.loc)}</title><link>${escapeUri(k.loc)}</link><guid isPermaLink="true">${escapeUri(k.loc)}</guid><pubDate>${rfc822(new Date(k.ms))}</pubDate></item>`,
      );
    }
    lines.push('</channel>', '</rss>');
  }
  const text = `${lines.join('\n')}\n`;
  const data = Buffer.from(text, 'utf8');
  return { text, data, sha256: createHash('sha256').update(data).digest('hex'), items: kept.length };
}

/** RFC 3339 as Atom wants it (a full date-time in UTC). */
function atomTime(d: Date): string {
  return formatUtc(d);
}

/** RFC 822 (with a four-digit year, as RFC 1123 and every feed reader use): `Tue, 24 Nov 2026 10:00:00 GMT`. */
function rfc822(d: Date): string {
  return d.toUTCString();
}

/**
 * The feed of `items` (a store's added and changed URLs, say): the newest `size` of them, as Atom
 * or RSS. The writer's `feed` option writes the same document into the set; this is the same code
 * for callers that publish a feed on their own.
 */
export async function buildFeed(
  items: Iterable<FeedItem> | AsyncIterable<FeedItem>,
  options: FeedDocumentOptions & { size: number },
): Promise<FeedText> {
  const newest = new NewestItems(options.size);
  for await (const item of items) newest.offerItem(item);
  return feedDocument(newest, options);
}
