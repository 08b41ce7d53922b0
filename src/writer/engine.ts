/**
 * The writer's pure engine: normalised entries in, file events out. It decides which file each
 * entry goes into and serialises it, within the protocol's budgets (URLs, uncompressed bytes and
 * news entries per file); it knows nothing of disks, streams, compression or manifests. Everything
 * is synchronous: the caller applies backpressure between two calls.
 *
 * Files are filled two ways: by automatic rotation (`sitemap-00001.xml`, … and
 * `sitemap-SECTION-00001.xml`, … for sectioned entries), or by name, for entries a caller has
 * already assigned to a file (stable files). A named file never rotates: an entry that would push
 * it past a budget is refused, since moving it elsewhere would break the assignment.
 */
import type { SitemapEntry } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_BYTES, MAX_NEWS_PER_FILE, MAX_URLS } from '../core/limits.js';
import type { EntryProblem } from '../core/normalize.js';
import { utf8Length } from '../core/utf8.js';
import { ADDED_EXTENSION, FILE_NAME } from './file-names.js';
import { type Extension, hasExtensions, textLine, URLSET_CLOSE, urlsetOpen, urlXml } from './serialize.js';

export interface EngineOptions {
  /** `xml` (urlsets) or `txt` (one URL a line). @default 'xml' */
  format?: 'xml' | 'txt';
  /** @default 50,000 */
  maxUrlsPerFile?: number;
  /** Uncompressed bytes. @default 52,428,800 */
  maxBytesPerFile?: number;
  /** @default 1,000 (Google's news sitemap rule) */
  maxNewsPerFile?: number;
  /** The stylesheet every urlset references, if any. */
  xslHref?: string | undefined;
  /** Appended to every file name (`.gz` when the sink compresses). @default '' */
  suffix?: string;
  /**
   * Names the Nth (from 0) rotated file of a section, without extension; it must give names no
   * other file of the set has. @default `sitemap-[SECTION-]00001`, …
   */
  childName?: ((n: number, section: string) => string) | undefined;
  /** Names no file may take (the entry point's, when a caller chose it). @default [] */
  reservedNames?: readonly string[];
}

/** A file as the engine sees it when it opens one. */
export interface EngineFile {
  /** The file name, e.g. `sitemap-blog-00002.xml.gz`. */
  readonly name: string;
  /** The section of an automatically rotated file ('' for none). */
  readonly section: string;
  /** The name a caller gave (without extension), for a named file. */
  readonly assigned: string | undefined;
}

/** A file the engine has closed: its last chunk has been emitted. */
export interface ClosedFile extends EngineFile {
  /** URLs it lists. */
  readonly urls: number;
  /** Exact uncompressed UTF-8 length of every chunk emitted for it. */
  readonly bytes: number;
  /** News entries it lists. */
  readonly news: number;
}

/**
 * Where the engine's events go. `open` returns the caller's handle for the file, which the engine
 * hands back with each chunk (no lookup per chunk on the hot path).
 */
export interface EngineEvents<H> {
  open(file: EngineFile): H;
  /** `text` is the next part of the file; `bytes` its UTF-8 length. */
  chunk(handle: H, text: string, bytes: number): void;
  close(handle: H, file: ClosedFile): void;
}

interface Slot<H> {
  section: string;
  assigned: string | undefined;
  /** Next number of an automatically rotated series. */
  next: number;
  open: { file: EngineFile; handle: H } | undefined;
  urls: number;
  bytes: number;
  news: number;
}

// Names the writer gives on its own: the entry point, extra indexes and rotated files.
const RESERVED = /^sitemap(?:$|-.*\d$)/;
const ASSIGNED_NAME = /^[a-z0-9][a-z0-9_-]{0,99}$/;

/**
 * The UTF-8 length of an entry's text. A normalised loc is an RFC 3986 URI, ASCII (WHATWG
 * serialisation percent-encodes every other character and writes hosts in punycode), and lastmod,
 * changefreq and priority are ASCII by their formats: the text of an entry without extensions (or
 * of a text sitemap) is ASCII, and its length is its byte count without counting. Extensions carry
 * free text (titles, captions), counted. The file writer checks every count when it encodes.
 */
function byteLength(e: SitemapEntry, s: string): number {
  return hasExtensions(e) ? utf8Length(s) : s.length;
}

function pad(n: number): string {
  return String(n).padStart(5, '0');
}

function positive(name: string, v: number | undefined, max: number): number {
  if (v === undefined) return max;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a whole number above 0`);
  return v;
}

export class SitemapEngine<H> {
  readonly #events: EngineEvents<H>;
  readonly #xml: boolean;
  readonly #ext: string;
  readonly #maxUrls: number;
  readonly #maxBytes: number;
  readonly #maxNews: number;
  readonly #xsl: string | undefined;
  readonly #closeBytes: number;
  readonly #auto = new Map<string, Slot<H>>();
  readonly #named = new Map<string, Slot<H>>();
  readonly #closed: ClosedFile[] = [];
  readonly #childName: ((n: number, section: string) => string) | undefined;
  /** Every name given so far (without extension), when a caller names rotated files. */
  readonly #given = new Set<string>();
  #declared: ReadonlySet<Extension> = new Set();
  #open = '';
  #openBytes = 0;
  #started = false;
  #finished = false;

  constructor(events: EngineEvents<H>, options: EngineOptions = {}) {
    this.#events = events;
    this.#xml = (options.format ?? 'xml') === 'xml';
    this.#ext = `${this.#xml ? 'xml' : 'txt'}${options.suffix ?? ''}`;
    this.#maxUrls = positive('maxUrlsPerFile', options.maxUrlsPerFile, MAX_URLS);
    this.#maxBytes = positive('maxBytesPerFile', options.maxBytesPerFile, MAX_BYTES);
    this.#maxNews = positive('maxNewsPerFile', options.maxNewsPerFile, MAX_NEWS_PER_FILE);
    this.#xsl = options.xslHref;
    this.#closeBytes = this.#xml ? URLSET_CLOSE.length : 0;
    this.#childName = options.childName;
    for (const name of options.reservedNames ?? []) this.#given.add(name);
    this.declare([]);
  }

  /**
   * The extension namespaces every urlset declares up front (others are declared on their
   * elements). Only before the first entry: files of one set share one header.
   */
  declare(extensions: Iterable<Extension>): void {
    if (this.#started) throw new Error('SitemapEngine.declare() must come before the first entry');
    this.#declared = new Set(extensions);
    this.#open = this.#xml ? urlsetOpen(this.#declared, this.#xsl) : '';
    this.#openBytes = utf8Length(this.#open);
  }

  /** Bytes of a file that holds nothing but its header and footer. */
  get emptyFileBytes(): number {
    return this.#openBytes + this.#closeBytes;
  }

  /** Checks that an entry fits in a file at all, without writing it. */
  check(e: SitemapEntry): EntryProblem | undefined {
    const s = this.#xml ? urlXml(e, this.#declared) : textLine(e);
    return this.#tooLarge(byteLength(e, s));
  }

  /**
   * Writes one entry: into the file named `file` (a name without extension, e.g. `products-a`)
   * when given, else into the current file of its section, rotating when a budget would be passed.
   * Returns the reason when the entry cannot be written (nothing is emitted then).
   */
  add(e: SitemapEntry, file?: string): EntryProblem | undefined {
    if (this.#finished) throw new Error('SitemapEngine.add() after finish()');
    this.#started = true;
    const s = this.#xml ? urlXml(e, this.#declared) : textLine(e);
    const len = byteLength(e, s);
    const large = this.#tooLarge(len);
    if (large !== undefined) return large;
    const news = e.news !== undefined;
    let slot: Slot<H>;
    if (file === undefined) {
      const section = e.section ?? '';
      slot = this.#auto.get(section) ?? this.#slot(this.#auto, section, section, undefined);
      if (slot.open !== undefined && !this.#fits(slot, len, news)) this.#close(slot);
    } else {
      const named = this.#named.get(file);
      if (named === undefined) {
        const bad = this.#badName(file);
        if (bad !== undefined) return bad;
        this.#given.add(file);
      }
      slot = named ?? this.#slot(this.#named, file, '', file);
      if (slot.open !== undefined && !this.#fits(slot, len, news)) return this.#full(slot, len, news);
    }
    let open = slot.open;
    if (open === undefined) {
      const name =
        slot.assigned !== undefined
          ? `${slot.assigned}.${this.#ext}`
          : this.#childName !== undefined
            ? `${this.#callerName(slot.next++ - 1, slot.section)}.${this.#ext}`
            : `sitemap-${slot.section === '' ? '' : `${slot.section}-`}${pad(slot.next++)}.${this.#ext}`;
      const f: EngineFile = { name, section: slot.section, assigned: slot.assigned };
      open = { file: f, handle: this.#events.open(f) };
      slot.open = open;
      slot.urls = 0;
      slot.news = 0;
      slot.bytes = this.#openBytes;
      if (this.#xml) this.#events.chunk(open.handle, this.#open, this.#openBytes);
    }
    this.#events.chunk(open.handle, s, len);
    slot.urls++;
    slot.bytes += len;
    if (news) slot.news++;
    return undefined;
  }

  /**
   * Closes every open file and returns every file of the set in index order: files without a
   * section, then each section's in section order, then named files in name order.
   */
  finish(): ClosedFile[] {
    if (!this.#finished) {
      this.#finished = true;
      for (const slot of this.#auto.values()) this.#close(slot);
      for (const slot of this.#named.values()) this.#close(slot);
    }
    const rank = (f: ClosedFile): string =>
      f.assigned !== undefined ? `2${f.name}` : f.section === '' ? '0' : `1${f.section}`;
    // A stable sort: each series keeps its numbering order.
    return [...this.#closed].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
  }

  #slot(map: Map<string, Slot<H>>, key: string, section: string, assigned: string | undefined): Slot<H> {
    const slot: Slot<H> = { section, assigned, next: 1, open: undefined, urls: 0, bytes: 0, news: 0 };
    map.set(key, slot);
    return slot;
  }

  #fits(slot: Slot<H>, len: number, news: boolean): boolean {
    return (
      slot.urls < this.#maxUrls &&
      slot.bytes + len + this.#closeBytes <= this.#maxBytes &&
      !(news && slot.news >= this.#maxNews)
    );
  }

  #close(slot: Slot<H>): void {
    const open = slot.open;
    if (open === undefined) return;
    slot.open = undefined;
    if (this.#xml) {
      this.#events.chunk(open.handle, URLSET_CLOSE, this.#closeBytes);
      slot.bytes += this.#closeBytes;
    }
    const closed: ClosedFile = { ...open.file, urls: slot.urls, bytes: slot.bytes, news: slot.news };
    this.#closed.push(closed);
    this.#events.close(open.handle, closed);
  }

  #tooLarge(len: number): EntryProblem | undefined {
    if (this.#openBytes + len + this.#closeBytes <= this.#maxBytes) return undefined;
    return {
      code: 'entry-too-large',
      field: '',
      message: `this entry alone needs ${len} bytes, more than a file may hold (${this.#maxBytes})`,
    };
  }

  /** A rotated file's name from the caller's function, checked: a bad or repeated name would overwrite another file. */
  #callerName(n: number, section: string): string {
    const name = this.#childName!(n, section);
    const what = `names.child(${n}${section === '' ? '' : `, "${section}"`})`;
    if (typeof name !== 'string' || !FILE_NAME.test(name) || ADDED_EXTENSION.test(name)) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `${what} gave ${JSON.stringify(name)}, which cannot name a sitemap file: give 1–100 of A-Z, a-z, 0-9, ".", "_" and "-" without extension`,
      );
    }
    if (this.#given.has(name)) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `${what} gave "${name}", which another file of the set already has: give every file its own name (use n)`,
      );
    }
    this.#given.add(name);
    return name;
  }

  #badName(file: string): EntryProblem | undefined {
    if (this.#given.has(file)) {
      return {
        code: 'file-name-invalid',
        field: 'file',
        message: `"${file}" is already the name of a rotated file of this set (names.child); assign another name`,
      };
    }
    if (ASSIGNED_NAME.test(file) && !RESERVED.test(file)) return undefined;
    return {
      code: 'file-name-invalid',
      field: 'file',
      message: `"${file}" cannot name a sitemap file: use 1–100 of a-z, 0-9, _ and -, not "sitemap" nor "sitemap-…" ending in a digit (the writer's own names)`,
    };
  }

  #full(slot: Slot<H>, len: number, news: boolean): EntryProblem {
    const why =
      slot.urls >= this.#maxUrls
        ? `already lists ${slot.urls} URLs`
        : news && slot.news >= this.#maxNews
          ? `already lists ${slot.news} news entries`
          : `would grow past ${this.#maxBytes} bytes with this entry's ${len}`;
    return {
      code: 'file-full',
      field: 'file',
      message: `${slot.assigned}.${this.#ext} ${why}; assign the entry to another file`,
    };
  }
}
