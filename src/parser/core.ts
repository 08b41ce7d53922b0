/**
 * The pure push parser: bytes in (`write`/`end`), items and diagnostics out. It knows nothing
 * about files, HTTP or gzip (the decode layer removes gzip before; gzip seen here is a second
 * layer). Feeding the same bytes in any chunking gives the same items and diagnostics.
 *
 * Pipeline: byte cap → encoding sniff (BOM, `<?xml encoding>`) → streaming TextDecoder → format
 * sniff (first non-blank character; leading junk before XML) → XML scanner + handler, or the text
 * handler → location rule and per-file counts on each item.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { MAX_BYTES, MAX_URLS } from '../core/limits.js';
import { checkUrl, inScope, type LocationScope, locationPrefix } from '../core/url.js';
import { UrlCarry } from './carry.js';
import { clip } from './field-values.js';
import { DocumentReporter, makeDiagnostic, type Where } from './reporter.js';
import type { ParserRuleCode } from './rules.js';
import type { DocumentSink } from './sink.js';
import { TextSitemapHandler } from './text-handler.js';
import type { ItemPosition, SitemapFormat, SitemapItem, SitemapParserOptions } from './types.js';
import { XmlSitemapHandler } from './xml-handler.js';
import { XmlScanner } from './xml-scanner.js';
import { SIMPLE_URLS } from './xml-simple-url.js';

// The global TextDecoder (WHATWG), not node:util's: the core stays free of Node APIs.
type Decoder = InstanceType<typeof TextDecoder>;

const SNIFF = 0;
const DETECT = 1;
const XML = 2;
const TEXT = 3;
const DONE = 4;

/** Bytes looked at for the encoding declaration, and characters for junk before the XML. */
const HEAD_LIMIT = 1024;

/** Reads one document. See {@link SitemapParserOptions}. */
export class SitemapParser implements DocumentSink {
  readonly rep: DocumentReporter;
  readonly #onItem: SitemapParserOptions['onItem'];
  readonly #onOutside: ((d: Diagnostic, item: SitemapItem) => void) | undefined;
  readonly #scopes: LocationScope[];
  readonly #maxBytes: number;
  readonly #maxDepth: number;
  #stage = SNIFF;
  #head: Uint8Array[] = [];
  #headLength = 0;
  #decoder: Decoder | undefined;
  #pending = '';
  #scanner: XmlScanner | undefined;
  #xml: XmlSitemapHandler | undefined;
  #text: TextSitemapHandler | undefined;
  #format: SitemapFormat | undefined;
  #bytes = 0;
  #entries = 0;
  #sitemaps = 0;
  #capped = false;
  #failed = false;
  #replaced = false;
  /** The bytes after a chunk's last `</url>`, held back for the next (carry.ts); undefined: never. */
  readonly #carry = SIMPLE_URLS.carry ? new UrlCarry() : undefined;
  /** Characters skipped before the content (blanks, junk) and where their last line started. */
  #skipped = 0;
  #skipLine = 1;
  #skipLineStart = 0;

  constructor(options: SitemapParserOptions) {
    this.rep = new DocumentReporter(options.sitemap, options.onDiagnostic);
    this.#onItem = options.onItem;
    this.#onOutside = options.onOutsideLocation;
    this.#maxBytes = options.maxBytes ?? MAX_BYTES;
    this.#maxDepth = options.maxElementDepth ?? 64;
    const urls =
      options.sitemapUrl === undefined
        ? []
        : typeof options.sitemapUrl === 'string'
          ? [options.sitemapUrl]
          : options.sitemapUrl;
    const allowHosts = options.allowHosts ?? [];
    this.#scopes = urls.map((u) => ({ prefix: locationPrefix(u, 'file'), allowHosts }));
  }

  /** The format, once sniffed. */
  get format(): SitemapFormat | undefined {
    return this.#format;
  }
  /** Page entries delivered so far. */
  get entries(): number {
    return this.#entries;
  }
  /** Index children delivered so far. */
  get sitemaps(): number {
    return this.#sitemaps;
  }
  /** Page entries delivered so far whose strings need no escaping in JSON (xml-simple-url.ts). */
  get plainEntries(): number {
    return this.#xml?.plainEntries ?? 0;
  }
  /** Bytes accepted so far (never more than `maxBytes`). */
  get bytes(): number {
    return this.#bytes;
  }
  /** Whether input beyond `maxBytes` was refused. */
  get capped(): boolean {
    return this.#capped;
  }
  /** Whether the parser accepts no more input (refused, capped, failed or ended). */
  get done(): boolean {
    return this.#stage === DONE || this.#capped || this.#failed || this.#xml?.refused === true;
  }

  write(chunk: Uint8Array): void {
    if (this.#stage === DONE || this.#capped || this.#failed) return;
    let bytes = chunk;
    const room = this.#maxBytes - this.#bytes;
    if (bytes.length > room) {
      bytes = bytes.subarray(0, room);
      this.#capped = true;
    }
    this.#bytes += bytes.length;
    if (bytes.length > 0) this.#feedBytes(bytes, false);
    if (this.#capped) {
      // Everything accepted is scanned before the cap is reported, as when it came in one piece.
      this.#flushCarry();
      this.rep.report(
        'sitemap-too-large',
        `the document is larger than ${this.#maxBytes.toLocaleString('en-US')} bytes${this.#maxBytes === MAX_BYTES ? ' (50 MiB, the protocol limit)' : ''}; reading stopped there`,
      );
      this.#finish(false);
    }
  }

  end(): void {
    if (this.#stage === DONE) return;
    this.#finish(!this.#capped && !this.#failed);
  }

  /**
   * Ends the document because the input failed (corrupt gzip, network error, download cap):
   * reports `code`, keeps what was read, and skips the end-of-document checks.
   */
  fail(code: ParserRuleCode, message: string): void {
    if (this.#stage === DONE) return;
    this.#flushCarry();
    this.rep.report(code, message);
    this.#failed = true;
    this.#finish(false);
  }

  /** Reports a diagnostic made elsewhere (a deferred `url-outside-location`) through this document's limits. */
  report(diagnostic: Diagnostic): void {
    this.rep.pass(diagnostic);
  }

  // ---- DocumentSink ---------------------------------------------------------------------------

  setFormat(format: SitemapFormat): void {
    this.#format = format;
  }

  emit(item: SitemapItem, at: ItemPosition): void {
    if ('kind' in item) {
      if (++this.#sitemaps === MAX_URLS + 1) {
        this.rep.report(
          'too-many-sitemaps',
          `more than ${MAX_URLS.toLocaleString('en-US')} sitemaps in one index`,
          whereOf(item, at),
        );
      }
    } else if (++this.#entries === MAX_URLS + 1) {
      this.rep.report(
        'too-many-urls',
        `more than ${MAX_URLS.toLocaleString('en-US')} URLs in one sitemap; all are read`,
        whereOf(item, at),
      );
    }
    const scopes = this.#scopes;
    if (scopes.length > 0 && !scopes.some((s) => inScope(item.loc, s))) {
      const r = checkUrl(item.loc, scopes[0]);
      const message = r.ok ? `"${item.loc}" is outside the sitemap's location` : r.message;
      const d = makeDiagnostic('url-outside-location', message, this.rep.sitemap, {
        ...whereOf(item, at),
        field: 'loc',
      });
      if (this.#onOutside !== undefined) this.#onOutside(d, item);
      else this.rep.pass(d);
    }
    this.#onItem(item, at);
  }

  // ---- stages ---------------------------------------------------------------------------------

  #feedBytes(bytes: Uint8Array, final: boolean): void {
    if (this.#stage === SNIFF) {
      if (bytes.length > 0) {
        this.#head.push(bytes);
        this.#headLength += bytes.length;
      }
      const head = concat(this.#head, this.#headLength);
      const decided = this.#sniffEncoding(head, final);
      if (decided === undefined) return;
      this.#head = [];
      this.#stage = DETECT;
      const carry = this.#carry;
      const first =
        carry !== undefined && !final && this.#wholeUtf8(this.#decoder!) ? carry.cut(decided) : decided;
      this.#feedText(this.#decode(first, final), final);
      return;
    }
    if (this.#stage === DONE) return;
    const carry = this.#carry;
    if (this.#stage === XML && carry !== undefined && !final && this.#wholeUtf8(this.#decoder!)) {
      const held = carry.held;
      let text = this.#decodeQuietly(carry.cut(bytes), false);
      if (held > 0 && !this.#replaced && text.includes('\uFFFD')) {
        // The text held back (ASCII: one character a byte) would have been scanned before this
        // chunk was decoded, and so before the decoder's finding.
        this.#feedText(text.slice(0, held), false);
        text = text.slice(held);
      }
      this.#feedText(this.#checked(text), false);
      return;
    }
    // Held back from the first chunk, when the document turned out not to be XML.
    this.#flushCarry();
    this.#feedText(this.#decode(bytes, final), final);
  }

  /**
   * Scans the bytes held back, if any: before any finding of the core or the end, so that what
   * is reported, and in what order, is what it was with the bytes scanned as they came.
   */
  #flushCarry(): void {
    const held = this.#carry?.take();
    if (held === undefined) return;
    this.#feedText(this.#decode(held, false), false);
  }

  #decode(bytes: Uint8Array, final: boolean): string {
    return this.#checked(this.#decodeQuietly(bytes, final));
  }

  #decodeQuietly(bytes: Uint8Array, final: boolean): string {
    const decoder = this.#decoder!;
    // A UTF-8 chunk that ends with an ASCII byte ends on a whole character: decoded as the end of
    // a stream (what the decoder holds from the chunk before included), it gives the same text,
    // and Node decodes a whole input about three times as fast as a streamed one (issue 16).
    const stream =
      !final && (bytes.length === 0 || bytes[bytes.length - 1]! >= 0x80 || !this.#wholeUtf8(decoder));
    return decoder.decode(bytes, { stream });
  }

  /** `s`, decoded; reports (once) that bytes were replaced. */
  #checked(s: string): string {
    if (!this.#replaced && s.includes('\uFFFD')) {
      this.#replaced = true;
      this.rep.report(
        'encoding-invalid',
        'bytes that are not valid in the document encoding were replaced by U+FFFD',
      );
    }
    return s;
  }

  /** Whether `decoder` reads UTF-8 without removing a byte order mark (one at a chunk's start would go). */
  #wholeUtf8(decoder: Decoder): boolean {
    return decoder.encoding === 'utf-8' && decoder.ignoreBOM;
  }

  /** Picks the decoder; returns the bytes to decode (BOM removed), or undefined to wait for more. */
  #sniffEncoding(head: Uint8Array, final: boolean): Uint8Array | undefined {
    if (head.length < 3 && !final) return undefined;
    if (head[0] === 0x1f && head[1] === 0x8b) {
      this.#stage = DONE;
      this.#failed = true;
      this.rep.report(
        'gzip-nested',
        'the content is gzip-compressed after one decompression (gzip inside gzip, or Content-Encoding over a .gz file); sitemapkit decompresses once only',
      );
      return undefined;
    }
    if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) {
      this.rep.report('bom', 'the document starts with a UTF-8 byte order mark');
      this.#decoder = new TextDecoder('utf-8', { ignoreBOM: true });
      return head.subarray(3);
    }
    if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe)) {
      const label = head[0] === 0xfe ? 'utf-16be' : 'utf-16le';
      this.rep.report(
        'encoding-not-utf8',
        `the document is ${label.toUpperCase()} (byte order mark); sitemaps must be UTF-8`,
      );
      this.#decoder = new TextDecoder(label, { ignoreBOM: true });
      return head.subarray(2);
    }
    // An encoding declaration is ASCII: look for it in the raw bytes before choosing a decoder.
    let i = 0;
    while (i < head.length && (head[i] === 0x20 || head[i] === 0x0a || head[i] === 0x0d || head[i] === 0x09))
      i++;
    const startsDecl = head.length - i >= 5 && latin1(head, i, i + 5) === '<?xml';
    if (startsDecl) {
      const text = latin1(head, i, Math.min(head.length, i + HEAD_LIMIT));
      const close = text.indexOf('?>');
      if (close === -1 && head.length - i < HEAD_LIMIT && !final) return undefined;
      const m = /encoding\s*=\s*["']([^"']+)["']/.exec(close === -1 ? text : text.slice(0, close));
      const label = m?.[1]?.trim().toLowerCase();
      if (label !== undefined && label !== 'utf-8' && label !== 'utf8') {
        let decoder: Decoder | undefined;
        try {
          decoder = new TextDecoder(label);
        } catch {
          decoder = undefined;
        }
        this.rep.report(
          'encoding-not-utf8',
          decoder === undefined || decoder.encoding === 'utf-8'
            ? `the document declares encoding "${m![1]}"; read as UTF-8`
            : `the document declares encoding "${m![1]}"; sitemaps must be UTF-8 (read as ${decoder.encoding})`,
        );
        if (decoder !== undefined) {
          this.#decoder = decoder;
          return head;
        }
      }
    } else if (head.length - i < 5 && !final && head.length < HEAD_LIMIT) {
      return undefined;
    }
    this.#decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    return head;
  }

  #feedText(text: string, final: boolean): void {
    switch (this.#stage) {
      case XML:
        if (text !== '') this.#scanner!.write(text);
        return;
      case TEXT:
        if (text !== '') this.#text!.write(text);
        return;
      case DETECT:
        this.#pending += text;
        this.#detect(final);
        return;
    }
  }

  /** Chooses XML or text from the first non-blank character (waiting for more when it must). */
  #detect(final: boolean): void {
    let s = this.#pending;
    const first = s.search(/\S/);
    if (first === -1) {
      // Leading blanks are counted, not kept: a file of 50 MiB of spaces must not be held in memory.
      this.#skip(s);
      this.#pending = '';
      return;
    }
    if (first > 0) {
      this.#skip(s.slice(0, first));
      s = s.slice(first);
      this.#pending = s;
    }
    if (s.charCodeAt(0) === 60) {
      this.#startXml(false);
      return;
    }
    if (s.length < HEAD_LIMIT && !final) return;
    const xmlAt = s.slice(0, HEAD_LIMIT).search(/<\?xml|<(?:[\w.-]+:)?(?:urlset|sitemapindex|rss|feed)[\s>]/);
    if (xmlAt !== -1) {
      this.rep.report(
        'xml-leading-junk',
        `"${clip(s.slice(0, xmlAt).trim(), 60)}" precedes the XML; skipped`,
        {
          line: this.#skipLine,
          column: this.#skipped - this.#skipLineStart + 1,
        },
      );
      this.#skip(s.slice(0, xmlAt));
      this.#pending = s.slice(xmlAt);
      this.#startXml(true);
      return;
    }
    this.#stage = TEXT;
    this.#text = new TextSitemapHandler(this, this.#skipLine, this.#skipped - this.#skipLineStart);
    this.#pending = '';
    this.#text.write(s);
  }

  #skip(text: string): void {
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      this.#skipLine++;
      this.#skipLineStart = this.#skipped + nl + 1;
      nl = text.indexOf('\n', nl + 1);
    }
    this.#skipped += text.length;
  }

  #startXml(afterJunk: boolean): void {
    this.#stage = XML;
    const handler = new XmlSitemapHandler(this, afterJunk);
    const scanner = new XmlScanner(handler, {
      maxDepth: this.#maxDepth,
      start: { offset: this.#skipped, line: this.#skipLine, lineStart: this.#skipLineStart },
    });
    handler.attach(scanner);
    this.#xml = handler;
    this.#scanner = scanner;
    const pending = this.#pending;
    this.#pending = '';
    scanner.write(pending);
  }

  #finish(complete: boolean): void {
    this.#flushCarry();
    if (this.#stage === SNIFF && complete) {
      this.#feedBytes(new Uint8Array(0), true);
    } else if (this.#stage !== SNIFF && this.#stage !== DONE && this.#decoder !== undefined && complete) {
      this.#feedText(this.#decode(new Uint8Array(0), true), true);
    }
    if (this.#stage === DETECT && complete) this.#detect(true);
    const stage = this.#stage;
    this.#stage = DONE;
    if (stage === XML) {
      if (complete) this.#scanner!.end();
      else this.#scanner!.abort();
    } else if (stage === TEXT) {
      this.#text!.end(complete);
    } else if (complete && !this.#failed && this.#format === undefined) {
      this.rep.report(
        'document-empty',
        this.#bytes === 0 ? 'the document is empty (0 bytes)' : 'the document holds only whitespace',
      );
    }
    if (
      complete &&
      this.#format !== undefined &&
      this.#entries + this.#sitemaps === 0 &&
      this.rep.errors === 0 &&
      this.#xml?.refused !== true
    ) {
      this.rep.report(
        'sitemap-empty',
        `the ${this.#format === 'sitemapindex' ? 'index' : this.#format} holds no entries`,
      );
    }
    this.rep.finish();
  }
}

function whereOf(item: SitemapItem, at: ItemPosition): Where {
  const w: Where = { url: item.loc };
  if (at.line !== undefined) w.line = at.line;
  if (at.column !== undefined) w.column = at.column;
  return w;
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
