/**
 * A `<url>` of the usual shape read in one function (issue 16): `<loc>`, then optionally
 * `<lastmod>`, `<changefreq>`, `<priority>` in that order, then any number of `<image:image>`
 * holding one `<image:loc>` each, every tag written bare (no attributes, no blanks), every value
 * plain text that needs no repair, and the whole element already in the scanner's buffer.
 *
 * Why: a parse of a few seconds or less is mostly V8 warming up, and until then every element
 * costs the scanner's tag loop, the handler's context switch, a namespace lookup, a field start
 * and end and a setter, each call interpreted. Here one sticky regular expression matches the
 * tags and the usual values (a normal URL, a clean date) in one call: V8 compiles a regular
 * expression to native code from its second use, long before it optimises the JavaScript around.
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
 * (for the tests that show it is taken); `carry`: whether parsers made from now on hold back the
 * bytes after a chunk's last `</url>` for the next chunk (core.ts; the tests compare without).
 */
export const SIMPLE_URLS: { enabled: boolean; read: number; carry: boolean } = {
  enabled: true,
  read: 0,
  carry: true,
};

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
const NORMAL_URL_SOURCE =
  "https?:\\/\\/(?:(?!xn--)[a-z0-9]+(?:-+[a-z0-9]+)*\\.)*(?!xn--)[a-z][a-z0-9]*(?:-+[a-z0-9]+)*(?:\\/(?:[\\w\\-~!$'()*+,;=:@][\\w\\-.~!$'()*+,;=:@]*)?)+(?:\\?[\\w\\-.~!$()*+,;=:@/?]*)?";
export const NORMAL_URL: RegExp = new RegExp(`^${NORMAL_URL_SOURCE}$`);

/**
 * lastmods that both date grammars accept as written (`DateReader.isClean` is true for every
 * string it matches; test/parser/simple-url.test.ts): `YYYY-MM-DD`, or that with
 * `Thh:mm:ss`, an optional fraction and a zone, with a real calendar date (29 February left to
 * the grammars), hours to 23 and zones to ±14:00. Year 0000 is not one (the XSD refuses it).
 */
const CLEAN_DATE_SOURCE =
  '(?!0000)\\d{4}-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)(?:T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:0\\d|1[0-3]):[0-5]\\d|[+-]14:00))?';
export const CLEAN_DATE: RegExp = new RegExp(`^${CLEAN_DATE_SOURCE}$`);

/**
 * A `<url>` of the simple shape up to its last child, sticky (matched at `lastIndex` only): the
 * loc as a normal URL (1) or as other text (2), the lastmod as a clean date (3) or other text (4),
 * the changefreq (5), the priority (6), the first image's loc as a normal URL (7) or other text
 * (8); any text between tags, as the general path skips it. `lastIndex` is then at the next `<`.
 * Linear: each `[^<]*` stops at the `<` the next literal needs, and a value's two alternatives
 * are the two regular expressions above, themselves linear, or plain text.
 */
const SIMPLE_URL = new RegExp(
  `<url>[^<]*<loc>(?:(${NORMAL_URL_SOURCE})|([^<]*))<\\/loc>[^<]*` +
    `(?:<lastmod>(?:(${CLEAN_DATE_SOURCE})|([^<]*))<\\/lastmod>[^<]*)?` +
    '(?:<changefreq>([^<]*)<\\/changefreq>[^<]*)?' +
    '(?:<priority>([^<]*)<\\/priority>[^<]*)?' +
    `(?:<image:image>[^<]*<image:loc>(?:(${NORMAL_URL_SOURCE})|([^<]*))<\\/image:loc>[^<]*<\\/image:image>[^<]*)?`,
  'y',
);

/** One more `<image:image>` of the simple shape, sticky: its loc as a normal URL (1) or other text (2). */
const SIMPLE_IMAGE = new RegExp(
  `<image:image>[^<]*<image:loc>(?:(${NORMAL_URL_SOURCE})|([^<]*))<\\/image:loc>[^<]*<\\/image:image>[^<]*`,
  'y',
);

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
  /** Whether every URL of the element being read matched {@link NORMAL_URL}. */
  #normal = true;
  /**
   * Entries read here whose strings all need no escaping in JSON (their URLs normal, their date
   * clean): `sitemapkit parse` writes their lines without looking (document.ts, run.ts).
   */
  plain = 0;

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

  /** {@link #url} of a value matched as a normal URL (`normal`) or as other text. */
  #value(normal: string | undefined, other: string | undefined): string | undefined {
    if (normal === undefined || normal.length < MIN_LOC_LENGTH || normal.length > MAX_LOC_LENGTH) {
      this.#normal = false;
      return this.#url(normal ?? other!);
    }
    this.#written = undefined;
    return normal;
  }

  /**
   * {@link read}, then the `<url>`s that follow as long as they are simple: read here, not after
   * another turn of the scanner's loop. In the urlset the scanner skips the text between elements
   * without a look (no one wants it), and nothing it checks before offering a `<url>` changes
   * with one read whole, unless an `onItem` ended the document (`scanner.done`). Returns the
   * index after the last one read, or -1 when the first is not simple.
   */
  readRun(buf: string, at: number, base: number, scanner: { readonly done: boolean }): number {
    let end = this.read(buf, at, base);
    if (end === -1) return -1;
    for (;;) {
      const next = buf.indexOf('<', end);
      if (next === -1 || !buf.startsWith('<url>', next) || scanner.done) return end;
      const after = this.read(buf, next, base);
      if (after === -1) return end;
      end = after;
    }
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
    // The tags and the usual values matched by one sticky regular expression: one call to
    // native code per element, where a scan by indexOf and startsWith is some thirty calls,
    // interpreted for most of a short parse (issue 16).
    const re = SIMPLE_URL;
    re.lastIndex = at;
    const m = re.exec(buf);
    if (m === null) return -1;
    let lt = re.lastIndex;
    this.#normal = true;
    const loc = this.#value(m[1], m[2]);
    if (loc === undefined) return -1;
    const written = this.#written;
    let lastmod = m[3];
    if (lastmod === undefined) {
      lastmod = m[4];
      // A clean date has no blanks, entities or CRs (the two date grammars are anchored).
      if (lastmod !== undefined && !this.#dates.isClean(lastmod)) return -1;
    }
    let changefreq: Changefreq | undefined;
    const cf = m[5];
    if (cf !== undefined) {
      changefreq = changefreqOf(cf);
      if (changefreq === undefined) return -1;
    }
    let priority: number | undefined;
    const raw = m[6];
    if (raw !== undefined) {
      if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(raw)) return -1;
      priority = Number(raw);
      if (!(priority >= 0 && priority <= 1)) return -1;
    }
    let images: ImageEntry[] | undefined;
    if (m[7] !== undefined || m[8] !== undefined) {
      if (!this.#images) return -1;
      const first = this.#value(m[7], m[8]);
      if (first === undefined) return -1;
      images = [{ loc: first }];
      const next = SIMPLE_IMAGE;
      while (buf.startsWith('<image:image>', lt)) {
        // The general path reports the 1,001st image (too-many-children).
        if (images.length >= MAX_LIST_LENGTH) return -1;
        next.lastIndex = lt;
        const i = next.exec(buf);
        if (i === null) return -1;
        const image = this.#value(i[1], i[2]);
        if (image === undefined) return -1;
        images.push({ loc: image });
        lt = next.lastIndex;
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
    // NORMAL_URL and the date grammars admit no `"`, `\\`, control character or surrogate.
    if (this.#normal) this.plain++;
    const where = this.#pos(base + at);
    this.#sink.emit(e, written === undefined ? where : { ...where, written });
    return lt + 6;
  }
}

/** The changefreq when the general path keeps it without a finding (changefreqValue in field-values.ts), as a constant. */
function changefreqOf(raw: string): Changefreq | undefined {
  switch (raw) {
    case 'always':
      return 'always';
    case 'hourly':
      return 'hourly';
    case 'daily':
      return 'daily';
    case 'weekly':
      return 'weekly';
    case 'monthly':
      return 'monthly';
    case 'yearly':
      return 'yearly';
    case 'never':
      return 'never';
  }
  return undefined;
}
