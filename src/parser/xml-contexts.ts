/**
 * What each open element of an XML sitemap or feed is (the handler keeps a stack of these), which
 * children each record of the entry model reads, what the element readers need from the handler,
 * and the path a value has in diagnostics.
 */
import type { At, DateReader } from './field-values.js';
import type { Resolved } from './namespace-scope.js';
import { type PageDraft, type Pos, TVSHOW_KEYS, VIDEO_KEYS } from './records.js';
import type { DocumentReporter } from './reporter.js';
import type { XmlAttribute } from './xml-entities.js';

// What an open element is. 0 is "outside the root".
export const C_SKIP = 1;
export const C_FIELD = 2;
export const C_URLSET = 3;
export const C_INDEX = 4;
export const C_URL = 5;
export const C_SITEMAP = 6;
export const C_IMAGE = 7;
export const C_VIDEO = 8;
export const C_TVSHOW = 9;
export const C_NEWS = 10;
export const C_PUBLICATION = 11;
export const C_RSS = 12;
export const C_CHANNEL = 13;
export const C_ITEM = 14;
export const C_FEED = 15;
export const C_ENTRY = 16;
export const C_MEDIA_GROUP = 17;

export const IMAGE_FIELDS: ReadonlySet<string> = new Set([
  'loc',
  'caption',
  'geo_location',
  'title',
  'license',
]);
export const VIDEO_FIELDS: ReadonlySet<string> = new Set<string>(VIDEO_KEYS.filter((k) => k !== 'tvshow'));
export const TVSHOW_FIELDS: ReadonlySet<string> = new Set<string>(TVSHOW_KEYS);
export const NEWS_FIELDS: ReadonlySet<string> = new Set([
  'publication_date',
  'title',
  'access',
  'genres',
  'keywords',
  'stock_tickers',
]);

/** What the element readers (feed items, index references) need from the XML handler. */
export interface ElementHost {
  readonly rep: DocumentReporter;
  readonly dates: DateReader;
  /** Where the value being read is. */
  readonly at: At;
  /** The `<url>`, item or entry being read. */
  page: PageDraft | undefined;
  /** The line and column of an offset; asked in document order. */
  pos(offset: number): Pos;
  recordAt(at: Pos, field: string): At;
  /** The attributes of the element `qname` that starts at `start`, from their raw text. */
  attributes(attrs: string, start: number, qname: string): XmlAttribute[];
  /** Starts reading the text of a value of `group` (the record) named `name`; returns {@link C_FIELD}. */
  startField(group: string, name: string, start: number, attrs?: string, qname?: string): number;
  /** Stops reading the text begun by {@link startField} without using it. */
  stopText(): void;
  /**
   * Marks a child that may appear once as read (`bit` in `record.seen`); false, with an
   * `element-duplicate` finding, when it was read before.
   */
  firstOf(record: { seen: number }, bit: number, el: Resolved, qname: string, start: number): boolean;
  /** Reports an element the format does not read. */
  unknown(el: Resolved, qname: string, start: number): void;
}

/** The field path of a value in diagnostics (`images[2].loc`, `news.publication.name`). */
export function fieldPath(group: string, name: string, page: PageDraft | undefined): string {
  switch (group) {
    case '':
    case 'sitemap':
      return name;
    case 'image':
      return `images[${page?.images?.length ?? 0}].${name}`;
    case 'video':
      return `videos[${page?.videos?.length ?? 0}].${name}`;
    case 'tvshow':
      return `videos[${page?.videos?.length ?? 0}].tvshow.${name}`;
    case 'news':
      return name === 'name' || name === 'language' ? `news.publication.${name}` : `news.${name}`;
    case 'date':
      return 'lastmod';
    case 'item':
      return name === 'link' || name === 'guid' ? 'loc' : name;
    default:
      return `${group}:${name}`;
  }
}
