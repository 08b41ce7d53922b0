/**
 * Scanner events → entries, for urlset, sitemapindex, RSS 2.0 / RSS 1.0 / mRSS and Atom 0.3 / 1.0.
 * A stack of contexts says what each open element is; leaf values are collected only where the
 * entry model has a field for them (see records.ts), so everything else is skipped cheaply.
 * The root and the document-level findings (xml-document.ts), the namespace scope, feed items and
 * index references are read by their own modules; pages and their extensions are read here.
 */
import type { ImageEntry, VideoEntry, VideoTvshow } from '../core/entry.js';
import { openInFeed } from './feed-items.js';
import { type At, DateReader } from './field-values.js';
import { IndexReferenceReader } from './index-references.js';
import { NamespaceScope, type Resolved } from './namespace-scope.js';
import { NS_IMAGE, NS_MOBILE, NS_NEWS, NS_VIDEO, NS_XHTML } from './namespaces.js';
import {
  addAlternate,
  addImage,
  addNews,
  addVideo,
  buildEntry,
  type Draft,
  type FieldContext,
  finishFeedItem,
  type NewsDraft,
  type PageDraft,
  type Pos,
  positionOf,
  setFeedField,
  setImageField,
  setNewsField,
  setPageField,
} from './records.js';
import { addTvshow, setTvshowField, setVideoField } from './records-video.js';
import type { DocumentReporter, Where } from './reporter.js';
import type { DocumentSink } from './sink.js';
import {
  C_CHANNEL,
  C_ENTRY,
  C_FEED,
  C_FIELD,
  C_IMAGE,
  C_INDEX,
  C_ITEM,
  C_MEDIA_GROUP,
  C_NEWS,
  C_PUBLICATION,
  C_RSS,
  C_SITEMAP,
  C_SKIP,
  C_TVSHOW,
  C_URL,
  C_URLSET,
  C_VIDEO,
  type ElementHost,
  fieldPath,
  IMAGE_FIELDS,
  NEWS_FIELDS,
  TVSHOW_FIELDS,
  VIDEO_FIELDS,
} from './xml-contexts.js';
import { openRoot, reportDeclaration, reportUnknown, reportXmlError } from './xml-document.js';
import { CR_REFERENCE, parseAttributes, type XmlAttribute, type XmlErrorKind } from './xml-entities.js';
import type { XmlScanHandler, XmlScanner } from './xml-scanner.js';
import { SimpleUrlReader } from './xml-simple-url.js';

const NO_ATTRIBUTES: readonly XmlAttribute[] = [];

/** Longest value kept, in characters; longer ones are dropped with `value-too-long`. */
export const MAX_VALUE_LENGTH = 65_536;

/** Turns scanner events into entries and diagnostics for one XML document. */
export class XmlSitemapHandler implements XmlScanHandler, FieldContext, ElementHost {
  readonly rep: DocumentReporter;
  readonly dates: DateReader = new DateReader();
  /** Set when the document must yield nothing more (DOCTYPE, HTML, unknown root). */
  refused = false;

  readonly #sink: DocumentSink;
  readonly #afterJunk: boolean;
  #scanner!: XmlScanner;
  readonly #ctx: number[] = [];
  readonly #ns: NamespaceScope;
  readonly #refs: IndexReferenceReader;
  readonly #simple: SimpleUrlReader;
  #sawMarkup = false;
  readonly #refuse = (): void => {
    this.refused = true;
    this.#scanner.abort();
  };

  /** The value being read: its record (`''` for the page itself, `image`, `video`, …) and element name. */
  #fieldGroup = '';
  #fieldName = '';
  #fieldStart = 0;
  attrs: readonly XmlAttribute[] = [];
  #text = '';
  #textOver = false;

  /** The `<url>`, RSS item or Atom entry being read. */
  page: PageDraft | undefined;
  #image: Draft<ImageEntry> | undefined;
  #imageAt: Pos | undefined;
  #video: Draft<VideoEntry> | undefined;
  #videoAt: Pos | undefined;
  #tvshow: Draft<VideoTvshow> | undefined;
  #news: NewsDraft = {};
  #newsAt: Pos | undefined;

  /** `afterJunk`: the core skipped text before the XML (and reported it). */
  constructor(sink: DocumentSink, afterJunk = false) {
    this.#sink = sink;
    this.rep = sink.rep;
    this.#afterJunk = afterJunk;
    this.#refs = new IndexReferenceReader(this, sink);
    this.#ns = new NamespaceScope(
      this.rep,
      (offset) => this.pos(offset),
      (kind, message, at) => this.error(kind, message, at),
    );
    this.#simple = new SimpleUrlReader(this.#ns, this.dates, sink, (offset) => this.pos(offset));
  }

  /** Connects the scanner that drives this handler (for positions, `wantText` and `mark`). */
  attach(scanner: XmlScanner): void {
    this.#scanner = scanner;
  }

  // ---- FieldContext -----------------------------------------------------------------------------

  /** Where the value being read is: computed only when a finding about it is reported. */
  readonly at: At = () =>
    this.#where(this.pos(this.#fieldStart), fieldPath(this.#fieldGroup, this.#fieldName, this.page));

  part(suffix: string): At {
    return () =>
      this.#where(
        this.pos(this.#fieldStart),
        `${fieldPath(this.#fieldGroup, this.#fieldName, this.page)}${suffix}`,
      );
  }

  // ---- scanner events -------------------------------------------------------------------------

  openTag(name: string, attrs: string, start: number): void {
    this.#sawMarkup = true;
    const ctx = this.#ctx;
    const depth = ctx.length;
    if (attrs !== '' && attrs.includes('xmlns')) this.#ns.declare(attrs, start + 1 + name.length, depth);
    const parent = depth === 0 ? 0 : ctx[depth - 1]!;
    if (parent === C_SKIP || parent === C_FIELD) {
      ctx.push(C_SKIP);
      return;
    }
    const el = this.#ns.resolve(name, start);
    let next = C_SKIP;
    switch (parent) {
      case 0:
        next = openRoot(el, name, this.pos(start), this.#sink, this.#ns, this.#refuse);
        break;
      case C_URLSET:
        if (el.local === 'url' && el.core) {
          this.page = { at: this.pos(start), hadLoc: false, order: -1, seen: 0 };
          next = C_URL;
        } else this.unknown(el, name, start);
        break;
      case C_INDEX:
        if (el.local === 'sitemap' && el.core) {
          this.#refs.begin(start);
          next = C_SITEMAP;
        } else this.unknown(el, name, start);
        break;
      case C_URL:
        next = this.#openInUrl(el, name, attrs, start);
        break;
      case C_SITEMAP:
        next = this.#refs.open(el, name, start);
        break;
      case C_IMAGE:
        if (el.ns === NS_IMAGE && IMAGE_FIELDS.has(el.local))
          next = this.startField('image', el.local, start);
        else this.unknown(el, name, start);
        break;
      case C_VIDEO:
        if (el.ns === NS_VIDEO && el.local === 'tvshow') {
          this.#tvshow = {};
          next = C_TVSHOW;
        } else if (el.ns === NS_VIDEO && VIDEO_FIELDS.has(el.local)) {
          next = this.startField('video', el.local, start, attrs, name);
        } else this.unknown(el, name, start);
        break;
      case C_TVSHOW:
        if (el.ns === NS_VIDEO && TVSHOW_FIELDS.has(el.local))
          next = this.startField('tvshow', el.local, start);
        else this.unknown(el, name, start);
        break;
      case C_NEWS:
        if (el.ns === NS_NEWS && el.local === 'publication') next = C_PUBLICATION;
        else if (el.ns === NS_NEWS && NEWS_FIELDS.has(el.local))
          next = this.startField('news', el.local, start);
        else this.unknown(el, name, start);
        break;
      case C_PUBLICATION:
        if (el.ns === NS_NEWS && (el.local === 'name' || el.local === 'language')) {
          next = this.startField('news', el.local, start);
        } else this.unknown(el, name, start);
        break;
      case C_RSS:
      case C_CHANNEL:
      case C_FEED:
      case C_ITEM:
      case C_ENTRY:
      case C_MEDIA_GROUP:
        next = openInFeed(this, parent, el, name, attrs, start);
        break;
    }
    ctx.push(next);
  }

  /** Entries read whole whose strings need no escaping in JSON (xml-simple-url.ts). */
  get plainEntries(): number {
    return this.#simple.plain;
  }

  /** A `<url>` of urlset read whole (xml-simple-url.ts): the index after it, or -1 for the general path. */
  simpleUrl(buf: string, at: number, base: number): number {
    const ctx = this.#ctx;
    return ctx.length === 1 && ctx[0] === C_URLSET ? this.#simple.readRun(buf, at, base, this.#scanner) : -1;
  }

  closeTag(_name: string, _start: number): void {
    const ctx = this.#ctx;
    switch (ctx.pop()) {
      case C_FIELD:
        this.#endField();
        break;
      case C_URL:
        this.#endPage();
        break;
      case C_SITEMAP:
        if (this.#refs.bare) this.#endField();
        this.#refs.end();
        break;
      case C_IMAGE:
        addImage(this.page!, this.#image!, this.rep, this.#imageWhere);
        this.#image = undefined;
        break;
      case C_VIDEO:
        addVideo(this.page!, this.#video!, this.rep, this.#videoWhere);
        this.#video = undefined;
        break;
      case C_TVSHOW:
        addTvshow(this.#video!, this.#tvshow!, this.rep, this.#tvshowWhere);
        this.#tvshow = undefined;
        break;
      case C_NEWS:
        addNews(this.page!, this.#news, this.rep, this.recordAt(this.#newsAt!, 'news'));
        this.#news = {};
        break;
      case C_ITEM:
      case C_ENTRY:
        if (finishFeedItem(this.page!, this.rep, this.dates)) this.#endPage();
        this.page = undefined;
        break;
    }
    this.#ns.leave(ctx.length);
  }

  text(text: string, _start: number): void {
    if (this.#textOver) return;
    if (this.#text.length + text.length > MAX_VALUE_LENGTH) {
      this.#textOver = true;
      this.#text = '';
      return;
    }
    this.#text += text;
  }

  cdata(text: string, start: number): void {
    this.rep.once('xml-cdata', 'CDATA sections are used', this.pos(start));
    this.text(text, start);
  }

  comment(start: number): void {
    this.rep.once('xml-comment', 'comments are present', this.pos(start));
  }

  processingInstruction(target: string, _body: string, start: number): void {
    if (target.toLowerCase() !== 'xml') return;
    if (this.#sawMarkup) {
      this.error('not-well-formed', 'an <?xml ?> declaration in the middle of the document', start);
    } else if (start > 0 && !this.#afterJunk) {
      this.rep.report(
        'xml-declaration-misplaced',
        'whitespace precedes <?xml: the declaration must be the very first thing in the file',
        this.pos(start),
      );
    }
    this.#sawMarkup = true;
  }

  declaration(keyword: string, start: number, preview: string): void {
    this.refused = true;
    reportDeclaration(this.rep, keyword, this.pos(start), preview);
  }

  error(kind: XmlErrorKind, message: string, start: number): void {
    reportXmlError(this.rep, kind, message, this.pos(start));
  }

  // ---- structure ------------------------------------------------------------------------------

  pos(offset: number): Pos {
    return this.#scanner.position(offset);
  }

  #where(at: Pos, field?: string): Where {
    const w: Where = { line: at.line, column: at.column };
    if (field !== undefined && field !== '') w.field = field;
    const loc = this.page?.loc;
    if (loc !== undefined) w.url = loc;
    return w;
  }

  /**
   * Where the image (video) being closed is, as `images[N]` with N its index once added: made once
   * per document, not per record (a closure and a string per image were a tenth of the handler's
   * allocations), and called only when a finding about it is reported, before it is added.
   */
  readonly #imageWhere: At = () => this.#where(this.#imageAt!, `images[${this.page!.images?.length ?? 0}]`);
  readonly #videoWhere: At = () => this.#where(this.#videoAt!, `videos[${this.page!.videos?.length ?? 0}]`);
  readonly #tvshowWhere: At = () =>
    this.#where(this.#videoAt!, `videos[${this.page!.videos?.length ?? 0}].tvshow`);

  recordAt(at: Pos, field: string): At {
    return () => this.#where(at, field);
  }

  firstOf(record: { seen: number }, bit: number, el: Resolved, qname: string, start: number): boolean {
    if (record.seen & bit) {
      this.rep.report(
        'element-duplicate',
        `<${qname}> appears twice; the first is kept`,
        this.#where(this.pos(start), el.local),
      );
      return false;
    }
    record.seen |= bit;
    return true;
  }

  unknown(el: Resolved, qname: string, start: number): void {
    reportUnknown(this.rep, el, qname, this.pos(start));
  }

  #order(position: number, start: number): void {
    const page = this.page!;
    if (position < page.order) {
      this.rep.once(
        'element-order',
        'children of <url> are not in the XSD order (loc, lastmod, changefreq, priority, then extensions)',
        this.pos(start),
      );
    } else page.order = position;
  }

  #openInUrl(el: Resolved, qname: string, attrs: string, start: number): number {
    const page = this.page!;
    if (el.core) {
      const position = el.order;
      if (position === -1) {
        this.unknown(el, qname, start);
        return C_SKIP;
      }
      this.#order(position, start);
      if (!this.firstOf(page, 1 << position, el, qname, start)) return C_SKIP;
      return this.startField('', el.local, start);
    }
    switch (el.ns) {
      case NS_IMAGE:
        if (el.local !== 'image') break;
        this.#order(4, start);
        this.#image = {};
        this.#imageAt = this.pos(start);
        return C_IMAGE;
      case NS_VIDEO:
        if (el.local !== 'video') break;
        this.#order(4, start);
        this.#video = {};
        this.#videoAt = this.pos(start);
        return C_VIDEO;
      case NS_NEWS:
        if (el.local !== 'news') break;
        this.#order(4, start);
        this.#news = {};
        this.#newsAt = this.pos(start);
        return C_NEWS;
      case NS_XHTML: {
        if (el.local !== 'link') break;
        this.#order(4, start);
        const a = this.attributes(attrs, start, qname);
        addAlternate(
          page,
          a,
          this.rep,
          this.recordAt(this.pos(start), `alternates[${page.alternates?.length ?? 0}]`),
        );
        return C_SKIP;
      }
      case NS_MOBILE:
        if (el.local !== 'mobile') break;
        this.#order(4, start);
        page.mobile = true;
        return C_SKIP;
    }
    this.unknown(el, qname, start);
    return C_SKIP;
  }

  attributes(attrs: string, start: number, qname: string): XmlAttribute[] {
    if (attrs === '') return [];
    return parseAttributes(attrs, start + 1 + qname.length, (k, m, at) => this.error(k, m, at));
  }

  // ---- values and records -----------------------------------------------------------------------

  startField(group: string, name: string, start: number, attrs = '', qname = ''): number {
    this.#fieldGroup = group;
    this.#fieldName = name;
    this.#fieldStart = start;
    this.attrs = attrs === '' ? NO_ATTRIBUTES : this.attributes(attrs, start, qname);
    this.#text = '';
    this.#textOver = false;
    this.#scanner.wantText = true;
    this.#scanner.mark = start;
    return C_FIELD;
  }

  stopText(): void {
    this.#scanner.wantText = false;
    this.#scanner.mark = -1;
    this.#text = '';
  }

  #endField(): void {
    const text = this.#text;
    this.stopText();
    // XML end-of-line handling (§2.11): CRLF and lone CR read as LF; then `&#13;` (decoded to a
    // stand-in so as not to be caught by the line above) becomes the CR it stands for.
    let raw = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
    if (raw.includes(CR_REFERENCE)) raw = raw.replaceAll(CR_REFERENCE, '\r');
    if (this.#textOver) {
      this.rep.report(
        'value-too-long',
        `the value is longer than ${MAX_VALUE_LENGTH} characters; dropped`,
        this.at(),
      );
    } else {
      const value = raw.trim();
      if (value.length !== raw.length && value !== '') {
        this.rep.once('value-whitespace', 'values are padded with whitespace; trimmed', this.at());
      }
      this.#setField(this.#fieldGroup, this.#fieldName, value);
    }
  }

  #setField(group: string, name: string, value: string): void {
    switch (group) {
      case '':
        setPageField(this.page!, name, value, this);
        return;
      case 'sitemap':
        this.#refs.field(name, value);
        return;
      case 'image':
        setImageField(this.#image!, name, value, this);
        return;
      case 'video':
        setVideoField(this.#video!, name, value, this);
        return;
      case 'tvshow':
        setTvshowField(this.#tvshow!, name, value, this);
        return;
      case 'news':
        setNewsField(this.#news, name, value, this);
        return;
      default:
        setFeedField(this.page!, group, name, value, this);
    }
  }

  #endPage(): void {
    const page = this.page!;
    this.page = undefined;
    if (page.loc === undefined) {
      if (!page.hadLoc) this.rep.report('loc-missing', '<url> has no <loc>; entry dropped', page.at);
      return;
    }
    this.#sink.emit(buildEntry(page), positionOf(page));
  }
}
