/**
 * A `<url>` of the usual shape read in one function (issue 16): `<loc>`, then optionally
 * `<lastmod>`, `<changefreq>`, `<priority>` in that order, then any number of `<image:image>`
 * holding one `<image:loc>` each, every tag written bare (no attributes, no blanks), every value
 * plain text that needs no repair, and the whole element already in the scanner's buffer.
 *
 * Why: a parse of a few seconds or less is mostly V8 warming up, and until then every element
 * costs the scanner's tag loop, the handler's context switch, a namespace lookup, a field start
 * and end and a setter, each call interpreted. Here the tags are matched with `startsWith` and
 * the values cut with `indexOf` and `slice`, built-ins that run at full speed from the first call.
 *
 * It only reads: anything it does not know for certain the general path would accept without a
 * finding (an attribute, a comment, CDATA, an entity, padding, a CR, another child, a value the
 * URL, date, changefreq or priority rule would repair or drop, the end of the buffer) makes it
 * give up, and the scanner reads the element from its start as it always did. So entries,
 * findings and positions are the general path's, byte for byte (test/parser/simple-url.test.ts).
 */
import type { Changefreq, ImageEntry, SitemapEntry } from '../core/entry.js';
import { MAX_LOC_LENGTH, MIN_LOC_LENGTH } from '../core/limits.js';
import { toStrictUri } from '../core/url.js';
import type { DateReader } from './field-values.js';
import type { NamespaceScope } from './namespace-scope.js';
import { NS_IMAGE } from './namespaces.js';
import { MAX_LIST_LENGTH, type Pos } from './records.js';
import type { DocumentSink } from './sink.js';

/**
 * `enabled`: whether simple `<url>` elements are read here, by scanners made from now on (the
 * tests turn it off to compare with the general path); `read`: how many were, in this thread
 * (for the tests that show it is taken).
 */
export const SIMPLE_URLS: { enabled: boolean; read: number } = { enabled: true, read: 0 };

/** Longest value read here; the general path keeps up to 65,536 characters, and reports longer ones. */
const MAX_SIMPLE_VALUE = 65_536;

/**
 * What the general path would change or report in a value: an entity or character reference, a
 * CR (end-of-line handling), the handler's stand-in for `&#13;`, `]]>`, padding (trimmed, with
 * `value-whitespace`). `\s` is the set of characters `String.prototype.trim` removes.
 */
const NOT_PLAIN = /[&\r\uFFFE]|\]\]>|^\s|\s$/;

/**
 * URLs the shared URL rule keeps exactly as written (`toStrictUri(s)` is `{ ok: true, url: s }`
 * for every `s` it matches of 12 to 2,047 characters; test/parser/simple-url.test.ts): http(s),
 * a host of lower-case labels (no punycode, the last one starting with a letter, no port), a
 * path without dot segments and a query of characters that need no percent-encoding, no `%`,
 * `&` or `#`. One compiled regular expression instead of the rule's character loop, which runs
 * interpreted for most of a short parse. Linear: no two quantifiers can match the same text.
 */
export const NORMAL_URL: RegExp =
  /^https?:\/\/(?:(?!xn--)[a-z0-9]+(?:-+[a-z0-9]+)*\.)*(?!xn--)[a-z][a-z0-9]*(?:-+[a-z0-9]+)*(?:\/(?:[\w\-~!$'()*+,;=:@][\w\-.~!$'()*+,;=:@]*)?)+(?:\?[\w\-.~!$()*+,;=:@/?]*)?$/;

/** Reads simple `<url>` elements; one per document, as the names it matches depend on the namespaces in scope. */
export class SimpleUrlReader {
  readonly #dates: DateReader;
  readonly #ns: NamespaceScope;
  readonly #sink: DocumentSink;
  readonly #pos: (offset: number) => Pos;
  #generation = -1;
  /** Whether unprefixed names are the sitemap's own (core) elements, read without a finding. */
  #core = false;
  /** Whether `image:` names the image namespace, read without a finding. */
  #images = false;
  /** The URL read last by {@link #url} as written, when that is not its normal form. */
  #written: string | undefined;

  /** `pos`: the line and column of an absolute offset (the scanner's, asked in document order). */
  constructor(ns: NamespaceScope, dates: DateReader, sink: DocumentSink, pos: (offset: number) => Pos) {
    this.#ns = ns;
    this.#dates = dates;
    this.#sink = sink;
    this.#pos = pos;
  }

  #names(): void {
    const ns = this.#ns;
    this.#generation = ns.generation;
    const url = ns.quiet('url');
    this.#core = url?.core === true && !url.prefixed;
    const image = ns.quiet('image:image');
    this.#images = image?.ns === NS_IMAGE && !image.core;
  }

  /** A usable URL value as the general path keeps it, or undefined where it reports or drops it. */
  #url(raw: string): string | undefined {
    this.#written = undefined;
    const n = raw.length;
    if (n >= MIN_LOC_LENGTH && n <= MAX_LOC_LENGTH && NORMAL_URL.test(raw)) return raw;
    if (n === 0 || n > MAX_SIMPLE_VALUE || NOT_PLAIN.test(raw)) return undefined;
    const r = toStrictUri(raw);
    if (!r.ok) return undefined;
    if (r.url !== raw) this.#written = raw;
    return r.url;
  }

  /**
   * Reads the `<url>` that starts at `at` in `buf` (`buf.startsWith('<url>', at)`; `base` is the
   * absolute offset of `buf[0]`) and hands its entry to the sink as the general path would, at the
   * same position: returns the index just after its `</url>`. Returns -1, having changed nothing
   * the general path depends on, when the element is not of the simple shape or `buf` ends
   * before its `</url>` (the scanner then reads it tag by tag, as it comes).
   */
  read(buf: string, at: number, base: number): number {
    if (this.#generation !== this.#ns.generation) this.#names();
    if (!this.#core) return -1;
    // <loc>, required.
    let lt = buf.indexOf('<', at + 5);
    if (lt === -1 || !buf.startsWith('<loc>', lt)) return -1;
    let end = buf.indexOf('<', lt + 5);
    if (end === -1 || !buf.startsWith('</loc>', end)) return -1;
    const loc = this.#url(buf.slice(lt + 5, end));
    if (loc === undefined) return -1;
    const written = this.#written;
    lt = buf.indexOf('<', end + 6);
    if (lt === -1) return -1;
    let lastmod: string | undefined;
    if (buf.startsWith('<lastmod>', lt)) {
      end = buf.indexOf('<', lt + 9);
      if (end === -1 || !buf.startsWith('</lastmod>', end)) return -1;
      lastmod = buf.slice(lt + 9, end);
      // A clean date has no blanks, entities or CRs (the two date grammars are anchored).
      if (!this.#dates.isClean(lastmod)) return -1;
      lt = buf.indexOf('<', end + 10);
      if (lt === -1) return -1;
    }
    let changefreq: Changefreq | undefined;
    if (buf.startsWith('<changefreq>', lt)) {
      end = buf.indexOf('<', lt + 12);
      if (end === -1 || !buf.startsWith('</changefreq>', end)) return -1;
      changefreq = changefreqAt(buf, lt + 12, end);
      if (changefreq === undefined) return -1;
      lt = buf.indexOf('<', end + 13);
      if (lt === -1) return -1;
    }
    let priority: number | undefined;
    if (buf.startsWith('<priority>', lt)) {
      end = buf.indexOf('<', lt + 10);
      if (end === -1 || !buf.startsWith('</priority>', end)) return -1;
      const raw = buf.slice(lt + 10, end);
      if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(raw)) return -1;
      priority = Number(raw);
      if (!(priority >= 0 && priority <= 1)) return -1;
      lt = buf.indexOf('<', end + 11);
      if (lt === -1) return -1;
    }
    let images: ImageEntry[] | undefined;
    if (this.#images) {
      while (buf.startsWith('<image:image>', lt)) {
        // The general path reports the 1,001st image (too-many-children).
        if (images !== undefined && images.length >= MAX_LIST_LENGTH) return -1;
        lt = buf.indexOf('<', lt + 13);
        if (lt === -1 || !buf.startsWith('<image:loc>', lt)) return -1;
        end = buf.indexOf('<', lt + 11);
        if (end === -1 || !buf.startsWith('</image:loc>', end)) return -1;
        const image = this.#url(buf.slice(lt + 11, end));
        if (image === undefined) return -1;
        lt = buf.indexOf('<', end + 12);
        if (lt === -1 || !buf.startsWith('</image:image>', lt)) return -1;
        if (images === undefined) images = [{ loc: image }];
        else images.push({ loc: image });
        lt = buf.indexOf('<', lt + 14);
        if (lt === -1) return -1;
      }
    }
    if (!buf.startsWith('</url>', lt)) return -1;
    // The fields in the order buildEntry (records.ts) sets them: the JSON lines follow that order.
    const e: SitemapEntry = { loc };
    if (lastmod !== undefined) e.lastmod = lastmod;
    if (changefreq !== undefined) e.changefreq = changefreq;
    if (priority !== undefined) e.priority = priority;
    if (images !== undefined) e.images = images;
    SIMPLE_URLS.read++;
    const where = this.#pos(base + at);
    this.#sink.emit(e, written === undefined ? where : { ...where, written });
    return lt + 6;
  }
}

/**
 * The changefreq in `buf[from, to)` when the general path keeps it without a finding
 * (changefreqValue in field-values.ts), matched in place: the word returned is a constant.
 */
function changefreqAt(buf: string, from: number, to: number): Changefreq | undefined {
  switch (to - from) {
    case 5:
      return buf.startsWith('daily', from) ? 'daily' : buf.startsWith('never', from) ? 'never' : undefined;
    case 6:
      for (const word of SIX_LETTERS) if (buf.startsWith(word, from)) return word;
      return undefined;
    case 7:
      return buf.startsWith('monthly', from) ? 'monthly' : undefined;
  }
  return undefined;
}

const SIX_LETTERS = ['weekly', 'always', 'hourly', 'yearly'] as const;
