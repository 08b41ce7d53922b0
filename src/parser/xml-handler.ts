/**
 * Scanner events → entries, for urlset, sitemapindex, RSS 2.0 / RSS 1.0 / mRSS and Atom 0.3 / 1.0.
 * A stack of contexts says what each open element is; leaf values are collected only where the
 * entry model has a field for them (see records.ts), so everything else is skipped cheaply.
 */
import type { ImageEntry, SitemapReference, VideoEntry, VideoTvshow } from '../core/entry.js';
import { type At, clip, DateReader, urlValue } from './field-values.js';
import {
  CONVENTIONAL_PREFIXES,
  classifyNamespace,
  NS_ATOM,
  NS_IMAGE,
  NS_MEDIA,
  NS_MOBILE,
  NS_NEWS,
  NS_NONE,
  NS_OTHER,
  NS_RSS1,
  NS_SITEMAP,
  NS_VIDEO,
  NS_XHTML,
  namespaceUri,
} from './namespaces.js';
import {
  addImage,
  addNews,
  addVideo,
  append,
  attr,
  buildEntry,
  type Draft,
  type FieldContext,
  finishFeedItem,
  type NewsDraft,
  ordered,
  type PageDraft,
  type Pos,
  roomIn,
  setFeedField,
  setImageField,
  setNewsField,
  setPageField,
  TVSHOW_KEYS,
  VIDEO_KEYS,
} from './records.js';
import { setTvshowField, setVideoField } from './records-video.js';
import type { DocumentReporter, Where } from './reporter.js';
import type { DocumentSink } from './sink.js';
import { CR_REFERENCE, parseAttributes, type XmlAttribute, type XmlErrorKind } from './xml-entities.js';
import type { XmlScanHandler, XmlScanner } from './xml-scanner.js';

// What an open element is. 0 is "outside the root".
const C_SKIP = 1;
const C_FIELD = 2;
const C_URLSET = 3;
const C_INDEX = 4;
const C_URL = 5;
const C_SITEMAP = 6;
const C_IMAGE = 7;
const C_VIDEO = 8;
const C_TVSHOW = 9;
const C_NEWS = 10;
const C_PUBLICATION = 11;
const C_RSS = 12;
const C_CHANNEL = 13;
const C_ITEM = 14;
const C_FEED = 15;
const C_ENTRY = 16;
const C_MEDIA_GROUP = 17;

const NO_ATTRIBUTES: readonly XmlAttribute[] = [];

/** Longest value kept, in characters; longer ones are dropped with `value-too-long`. */
export const MAX_VALUE_LENGTH = 65_536;

const DC_NS = 'http://purl.org/dc/elements/1.1/';
const IMAGE_FIELDS: ReadonlySet<string> = new Set(['loc', 'caption', 'geo_location', 'title', 'license']);
const VIDEO_FIELDS: ReadonlySet<string> = new Set<string>(VIDEO_KEYS.filter((k) => k !== 'tvshow'));
const TVSHOW_FIELDS: ReadonlySet<string> = new Set<string>(TVSHOW_KEYS);
const NEWS_FIELDS: ReadonlySet<string> = new Set([
  'publication_date',
  'title',
  'access',
  'genres',
  'keywords',
  'stock_tickers',
]);
const CORE_ORDER: Readonly<Record<string, number>> = { loc: 0, lastmod: 1, changefreq: 2, priority: 3 };

interface Resolved {
  ns: number;
  local: string;
  uri: string;
  prefixed: boolean;
  /** In the sitemap namespace, no namespace, or the root's (possibly wrong) one. */
  core: boolean;
  /** XSD position among <url>'s core children (loc 0 … priority 3), or -1. */
  order: number;
}

/** Turns scanner events into entries and diagnostics for one XML document. */
export class XmlSitemapHandler implements XmlScanHandler, FieldContext {
  readonly rep: DocumentReporter;
  readonly dates: DateReader = new DateReader();
  /** Set when the document must yield nothing more (DOCTYPE, HTML, unknown root). */
  refused = false;

  readonly #sink: DocumentSink;
  readonly #afterJunk: boolean;
  #scanner!: XmlScanner;
  readonly #ctx: number[] = [];
  readonly #frames: Array<{ depth: number; map: Map<string, string> }> = [];
  readonly #cache = new Map<string, Resolved>();
  /** The root's namespace URI: children in it are core elements even when it is a wrong one. */
  #coreUri = '';
  #sawMarkup = false;

  /** The value being read: its record (`''` for the page itself, `image`, `video`, …) and element name. */
  #fieldGroup = '';
  #fieldName = '';
  #fieldStart = 0;
  attrs: readonly XmlAttribute[] = [];
  #text = '';
  #textOver = false;

  #page: PageDraft | undefined;
  #image: Draft<ImageEntry> | undefined;
  #imageAt: Pos | undefined;
  #video: Draft<VideoEntry> | undefined;
  #videoAt: Pos | undefined;
  #tvshow: Draft<VideoTvshow> | undefined;
  #news: NewsDraft = {};
  #newsAt: Pos | undefined;
  #ref: { at: Pos; loc?: string; hadLoc: boolean; lastmod?: string; seen: number } | undefined;

  /** `afterJunk`: the core skipped text before the XML (and reported it). */
  constructor(sink: DocumentSink, afterJunk = false) {
    this.#sink = sink;
    this.rep = sink.rep;
    this.#afterJunk = afterJunk;
  }

  /** Connects the scanner that drives this handler (for positions, `wantText` and `mark`). */
  attach(scanner: XmlScanner): void {
    this.#scanner = scanner;
  }

  // ---- FieldContext -----------------------------------------------------------------------------

  /** Where the value being read is: computed only when a finding about it is reported. */
  readonly at: At = () =>
    this.#where(this.#pos(this.#fieldStart), this.#pathOf(this.#fieldGroup, this.#fieldName));

  part(suffix: string): At {
    return () =>
      this.#where(this.#pos(this.#fieldStart), `${this.#pathOf(this.#fieldGroup, this.#fieldName)}${suffix}`);
  }

  // ---- scanner events -------------------------------------------------------------------------

  openTag(name: string, attrs: string, start: number): void {
    this.#sawMarkup = true;
    const ctx = this.#ctx;
    const depth = ctx.length;
    if (attrs !== '' && attrs.includes('xmlns')) this.#declare(attrs, start + 1 + name.length, depth);
    const parent = depth === 0 ? 0 : ctx[depth - 1]!;
    if (parent === C_SKIP || parent === C_FIELD) {
      ctx.push(C_SKIP);
      return;
    }
    const el = this.#resolve(name, start);
    let next = C_SKIP;
    switch (parent) {
      case 0:
        next = this.#openRoot(el, name, start);
        break;
      case C_URLSET:
        if (el.local === 'url' && el.core) {
          this.#page = { at: this.#pos(start), hadLoc: false, order: -1, seen: 0 };
          next = C_URL;
        } else this.#unknown(el, name, start);
        break;
      case C_INDEX:
        if (el.local === 'sitemap' && el.core) {
          this.#ref = { at: this.#pos(start), hadLoc: false, seen: 0 };
          next = C_SITEMAP;
        } else this.#unknown(el, name, start);
        break;
      case C_URL:
        next = this.#openInUrl(el, name, attrs, start);
        break;
      case C_SITEMAP:
        next = this.#openInReference(el, name, start);
        break;
      case C_IMAGE:
        if (el.ns === NS_IMAGE && IMAGE_FIELDS.has(el.local))
          next = this.#startField('image', el.local, start);
        else this.#unknown(el, name, start);
        break;
      case C_VIDEO:
        if (el.ns === NS_VIDEO && el.local === 'tvshow') {
          this.#tvshow = {};
          next = C_TVSHOW;
        } else if (el.ns === NS_VIDEO && VIDEO_FIELDS.has(el.local)) {
          next = this.#startField('video', el.local, start, attrs, name);
        } else this.#unknown(el, name, start);
        break;
      case C_TVSHOW:
        if (el.ns === NS_VIDEO && TVSHOW_FIELDS.has(el.local))
          next = this.#startField('tvshow', el.local, start);
        else this.#unknown(el, name, start);
        break;
      case C_NEWS:
        if (el.ns === NS_NEWS && el.local === 'publication') next = C_PUBLICATION;
        else if (el.ns === NS_NEWS && NEWS_FIELDS.has(el.local))
          next = this.#startField('news', el.local, start);
        else this.#unknown(el, name, start);
        break;
      case C_PUBLICATION:
        if (el.ns === NS_NEWS && (el.local === 'name' || el.local === 'language')) {
          next = this.#startField('news', el.local, start);
        } else this.#unknown(el, name, start);
        break;
      case C_RSS:
        if (el.local === 'channel') next = C_CHANNEL;
        break;
      case C_CHANNEL:
        if (el.local === 'item' && (el.ns === NS_NONE || el.ns === NS_RSS1)) {
          this.#page = { at: this.#pos(start), hadLoc: false, order: 0, seen: 0 };
          next = C_ITEM;
        }
        break;
      case C_FEED:
        if (el.local === 'entry' && (el.ns === NS_ATOM || el.ns === NS_NONE)) {
          this.#page = { at: this.#pos(start), hadLoc: false, order: 0, seen: 0 };
          next = C_ENTRY;
        }
        break;
      case C_ITEM:
      case C_ENTRY:
      case C_MEDIA_GROUP:
        next = this.#openInFeedItem(parent, el, name, attrs, start);
        break;
    }
    ctx.push(next);
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
        this.#endReference();
        break;
      case C_IMAGE:
        addImage(
          this.#page!,
          this.#image!,
          this.rep,
          this.#recordAt(this.#imageAt!, `images[${this.#page!.images?.length ?? 0}]`),
        );
        this.#image = undefined;
        break;
      case C_VIDEO:
        addVideo(
          this.#page!,
          this.#video!,
          this.rep,
          this.#recordAt(this.#videoAt!, `videos[${this.#page!.videos?.length ?? 0}]`),
        );
        this.#video = undefined;
        break;
      case C_TVSHOW:
        this.#endTvshow();
        break;
      case C_NEWS:
        addNews(this.#page!, this.#news, this.rep, this.#recordAt(this.#newsAt!, 'news'));
        this.#news = {};
        break;
      case C_ITEM:
      case C_ENTRY:
        if (finishFeedItem(this.#page!, this.rep, this.dates)) this.#endPage();
        this.#page = undefined;
        break;
    }
    const frames = this.#frames;
    if (frames.length > 0 && frames[frames.length - 1]!.depth === ctx.length) {
      frames.pop();
      this.#cache.clear();
    }
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
    this.rep.once('xml-cdata', 'CDATA sections are used', this.#pos(start));
    this.text(text, start);
  }

  comment(start: number): void {
    this.rep.once('xml-comment', 'comments are present', this.#pos(start));
  }

  processingInstruction(target: string, _body: string, start: number): void {
    if (target.toLowerCase() !== 'xml') return;
    if (this.#sawMarkup) {
      this.error('not-well-formed', 'an <?xml ?> declaration in the middle of the document', start);
    } else if (start > 0 && !this.#afterJunk) {
      this.rep.report(
        'xml-declaration-misplaced',
        'whitespace precedes <?xml: the declaration must be the very first thing in the file',
        this.#pos(start),
      );
    }
    this.#sawMarkup = true;
  }

  declaration(keyword: string, start: number, preview: string): void {
    this.refused = true;
    const at = this.#pos(start);
    if (keyword.toUpperCase() === 'DOCTYPE' && /^\s+html\b/i.test(preview)) {
      this.rep.report(
        'html-not-sitemap',
        'this is an HTML page (<!DOCTYPE html>), not a sitemap; nothing read',
        at,
      );
      return;
    }
    this.rep.report(
      'xml-doctype',
      `<!${keyword}> declarations are refused (entity expansion and external fetches); nothing is read from this document`,
      at,
    );
  }

  error(kind: XmlErrorKind, message: string, start: number): void {
    const at = this.#pos(start);
    switch (kind) {
      case 'bare-ampersand':
        this.rep.report('xml-bare-ampersand', message, at);
        break;
      case 'entity':
        this.rep.report('xml-entity', message, at);
        break;
      case 'truncated':
        this.rep.once('xml-truncated', `${message}; every complete entry before the break was kept`, at);
        break;
      case 'too-deep':
        this.rep.report('xml-too-deep', message, at);
        break;
      default:
        this.rep.report('xml-not-well-formed', message, at);
    }
  }

  // ---- structure ------------------------------------------------------------------------------

  #pos(offset: number): Pos {
    return this.#scanner.position(offset);
  }

  #where(at: Pos, field?: string): Where {
    const w: Where = { line: at.line, column: at.column };
    if (field !== undefined && field !== '') w.field = field;
    const loc = this.#page?.loc;
    if (loc !== undefined) w.url = loc;
    return w;
  }

  #recordAt(at: Pos, field: string): At {
    return () => this.#where(at, field);
  }

  #declare(attrs: string, start: number, depth: number): void {
    let map: Map<string, string> | undefined;
    for (const a of parseAttributes(attrs, start, (k, m, at) => this.error(k, m, at))) {
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) {
        map ??= new Map();
        map.set(a.name === 'xmlns' ? '' : a.name.slice(6), a.value.trim());
      }
    }
    if (map === undefined) return;
    this.#frames.push({ depth, map });
    this.#cache.clear();
  }

  #lookup(prefix: string): string | undefined {
    const frames = this.#frames;
    for (let i = frames.length - 1; i >= 0; i--) {
      const uri = frames[i]!.map.get(prefix);
      if (uri !== undefined) return uri;
    }
    return prefix === '' ? '' : undefined;
  }

  #resolve(qname: string, start: number): Resolved {
    const hit = this.#cache.get(qname);
    if (hit !== undefined) return hit;
    const colon = qname.indexOf(':');
    const prefix = colon === -1 ? '' : qname.slice(0, colon);
    const local = colon === -1 ? qname : qname.slice(colon + 1);
    const uri = this.#lookup(prefix);
    let ns: number;
    if (uri === undefined) {
      const conventional = CONVENTIONAL_PREFIXES.get(prefix);
      ns = conventional ?? NS_OTHER;
      this.rep.once(
        'namespace-undeclared',
        conventional === undefined
          ? `prefix "${prefix}:" is not declared; <${qname}> ignored`
          : `prefix "${prefix}:" is not declared; read as ${namespaceUri(conventional)}`,
        this.#pos(start),
        `undeclared:${prefix}`,
      );
    } else {
      const c = classifyNamespace(uri);
      ns = c.ns;
      if (!c.exact) {
        this.rep.once(
          'namespace-wrong',
          `namespace "${clip(uri)}" is not exact; read as ${namespaceUri(ns)}`,
          this.#pos(start),
          `wrong:${uri}`,
        );
      }
    }
    const u = uri ?? '';
    const core = ns === NS_SITEMAP || ns === NS_NONE || (u === this.#coreUri && this.#coreUri !== '');
    const r: Resolved = {
      ns,
      local,
      uri: u,
      prefixed: colon !== -1,
      core,
      order: core ? (CORE_ORDER[local] ?? -1) : -1,
    };
    this.#cache.set(qname, r);
    return r;
  }

  #openRoot(el: Resolved, qname: string, start: number): number {
    const sink = this.#sink;
    const at = this.#pos(start);
    const local = el.local;
    if (local === 'urlset' || local === 'sitemapindex') {
      this.#coreUri = el.uri;
      // Resolutions made so far did not know the root's namespace.
      this.#cache.clear();
      if (el.ns === NS_NONE) {
        this.rep.report('namespace-missing', `<${qname}> declares no namespace; read as a sitemap`, at);
      } else if (el.ns !== NS_SITEMAP) {
        this.rep.report(
          'namespace-wrong',
          `<${qname}> is in namespace "${clip(el.uri)}"; read as a sitemap`,
          at,
        );
      } else if (el.prefixed) {
        this.rep.report('namespace-prefixed', `the sitemap namespace is bound to a prefix (<${qname}>)`, at);
      }
      sink.setFormat(local === 'urlset' ? 'urlset' : 'sitemapindex');
      return local === 'urlset' ? C_URLSET : C_INDEX;
    }
    if (local === 'rss') {
      sink.setFormat('rss');
      return C_RSS;
    }
    if (local === 'RDF') {
      sink.setFormat('rss');
      return C_CHANNEL;
    }
    if (local === 'feed') {
      sink.setFormat('atom');
      return C_FEED;
    }
    this.refused = true;
    this.#scanner.abort();
    if (local.toLowerCase() === 'html') {
      this.rep.report('html-not-sitemap', 'this is an HTML page (<html>), not a sitemap; nothing read', at);
    } else {
      this.rep.report(
        'format-unknown',
        `the root element <${qname}> is not urlset, sitemapindex, rss or feed; nothing read`,
        at,
      );
    }
    return C_SKIP;
  }

  #unknown(el: Resolved, qname: string, start: number): void {
    if (el.ns === NS_OTHER && !el.core) {
      // Other namespaces are how the protocol lets people extend sitemaps (xsd:any ##other).
      this.rep.once(
        'element-unknown',
        `<${qname}> (namespace "${clip(el.uri)}") is not read`,
        this.#pos(start),
        `unknown:${el.uri}`,
      );
      return;
    }
    this.rep.once(
      'element-unknown',
      `<${qname}> is not an element of this format; ignored`,
      this.#pos(start),
      `unknown:${qname}`,
    );
  }

  #order(position: number, start: number): void {
    const page = this.#page!;
    if (position < page.order) {
      this.rep.once(
        'element-order',
        'children of <url> are not in the XSD order (loc, lastmod, changefreq, priority, then extensions)',
        this.#pos(start),
      );
    } else page.order = position;
  }

  #openInUrl(el: Resolved, qname: string, attrs: string, start: number): number {
    const page = this.#page!;
    if (el.core) {
      const position = el.order;
      if (position === -1) {
        this.#unknown(el, qname, start);
        return C_SKIP;
      }
      this.#order(position, start);
      const bit = 1 << position;
      if (page.seen & bit) {
        this.rep.report(
          'element-duplicate',
          `<${qname}> appears twice; the first is kept`,
          this.#where(this.#pos(start), el.local),
        );
        return C_SKIP;
      }
      page.seen |= bit;
      return this.#startField('', el.local, start);
    }
    switch (el.ns) {
      case NS_IMAGE:
        if (el.local !== 'image') break;
        this.#order(4, start);
        this.#image = {};
        this.#imageAt = this.#pos(start);
        return C_IMAGE;
      case NS_VIDEO:
        if (el.local !== 'video') break;
        this.#order(4, start);
        this.#video = {};
        this.#videoAt = this.#pos(start);
        return C_VIDEO;
      case NS_NEWS:
        if (el.local !== 'news') break;
        this.#order(4, start);
        this.#news = {};
        this.#newsAt = this.#pos(start);
        return C_NEWS;
      case NS_XHTML:
        if (el.local !== 'link') break;
        this.#order(4, start);
        this.#alternate(this.#attrs(attrs, start, qname), start);
        return C_SKIP;
      case NS_MOBILE:
        if (el.local !== 'mobile') break;
        this.#order(4, start);
        page.mobile = true;
        return C_SKIP;
    }
    this.#unknown(el, qname, start);
    return C_SKIP;
  }

  #openInReference(el: Resolved, qname: string, start: number): number {
    if (!el.core || (el.local !== 'loc' && el.local !== 'lastmod')) {
      this.#unknown(el, qname, start);
      return C_SKIP;
    }
    const ref = this.#ref!;
    const bit = el.local === 'loc' ? 1 : 2;
    if (ref.seen & bit) {
      this.rep.report(
        'element-duplicate',
        `<${qname}> appears twice; the first is kept`,
        this.#where(this.#pos(start), el.local),
      );
      return C_SKIP;
    }
    ref.seen |= bit;
    return this.#startField('sitemap', el.local, start);
  }

  #openInFeedItem(parent: number, el: Resolved, qname: string, attrs: string, start: number): number {
    const page = this.#page!;
    if (el.ns === NS_MEDIA) {
      switch (el.local) {
        case 'group':
          return C_MEDIA_GROUP;
        case 'content': {
          const a = this.#attrs(attrs, start, qname);
          const url = attr(a, 'url');
          if (url !== undefined && url !== '') {
            page.media = append(page.media, {
              url,
              medium: (attr(a, 'medium') ?? '').toLowerCase(),
              type: (attr(a, 'type') ?? '').toLowerCase(),
              duration: attr(a, 'duration') ?? '',
            });
          }
          return C_SKIP;
        }
        case 'thumbnail': {
          const url = attr(this.#attrs(attrs, start, qname), 'url');
          if (url !== undefined && url !== '') page.thumbnails = append(page.thumbnails, url);
          return C_SKIP;
        }
        case 'player': {
          const url = attr(this.#attrs(attrs, start, qname), 'url');
          if (url !== undefined && url !== '') page.player ??= url;
          return C_SKIP;
        }
        case 'title':
        case 'description':
          return this.#startField('media', el.local, start);
      }
      return C_SKIP;
    }
    if (parent === C_MEDIA_GROUP) return C_SKIP;
    if (parent === C_ENTRY) {
      if (el.ns !== NS_ATOM && el.ns !== NS_NONE) return C_SKIP;
      switch (el.local) {
        case 'link': {
          const a = this.#attrs(attrs, start, qname);
          const href = attr(a, 'href');
          if ((attr(a, 'rel') ?? 'alternate') === 'alternate' && href !== undefined && !page.hadLoc) {
            page.hadLoc = true;
            const url = urlValue(href, this.rep, this.#recordAt(this.#pos(start), 'loc'));
            if (url !== undefined) page.loc = url;
          }
          return C_SKIP;
        }
        case 'updated':
        case 'modified':
        case 'published':
        case 'issued':
          return this.#startField('date', el.local, start);
      }
      return C_SKIP;
    }
    // RSS 2.0 / 1.0 item.
    if (el.ns === NS_OTHER && el.uri === DC_NS && el.local === 'date')
      return this.#startField('date', 'dcdate', start);
    if (el.ns !== NS_NONE && el.ns !== NS_RSS1) return C_SKIP;
    switch (el.local) {
      case 'link':
        return this.#startField('item', 'link', start);
      case 'guid':
        return this.#startField('item', 'guid', start, attrs, qname);
      case 'pubDate':
        return this.#startField('date', 'pubDate', start);
      case 'title':
        return this.#startField('item', 'title', start);
      case 'description':
        return this.#startField('item', 'description', start);
    }
    return C_SKIP;
  }

  #attrs(attrs: string, start: number, qname: string): XmlAttribute[] {
    if (attrs === '') return [];
    return parseAttributes(attrs, start + 1 + qname.length, (k, m, at) => this.error(k, m, at));
  }

  #alternate(a: readonly XmlAttribute[], start: number): void {
    const page = this.#page!;
    const rel = attr(a, 'rel');
    const hreflang = attr(a, 'hreflang');
    const href = attr(a, 'href');
    const at = this.#recordAt(this.#pos(start), `alternates[${page.alternates?.length ?? 0}]`);
    if (rel?.toLowerCase() !== 'alternate' || !hreflang || !href) {
      const missing = [
        rel?.toLowerCase() !== 'alternate' && 'rel="alternate"',
        !hreflang && 'hreflang',
        !href && 'href',
      ]
        .filter(Boolean)
        .join(', ');
      this.rep.report('alternate-invalid', `<xhtml:link> lacks ${missing}; dropped`, at());
      return;
    }
    const url = urlValue(href, this.rep, at);
    if (url !== undefined && roomIn(page.alternates, 'alternates', this.rep, at)) {
      page.alternates = append(page.alternates, { hreflang, href: url });
    }
  }

  // ---- values and records -----------------------------------------------------------------------

  #startField(group: string, name: string, start: number, attrs = '', qname = ''): number {
    this.#fieldGroup = group;
    this.#fieldName = name;
    this.#fieldStart = start;
    this.attrs = attrs === '' ? NO_ATTRIBUTES : this.#attrs(attrs, start, qname);
    this.#text = '';
    this.#textOver = false;
    this.#scanner.wantText = true;
    this.#scanner.mark = start;
    return C_FIELD;
  }

  #endField(): void {
    const scanner = this.#scanner;
    scanner.wantText = false;
    // XML end-of-line handling (§2.11): CRLF and lone CR read as LF; then `&#13;` (decoded to a
    // stand-in so as not to be caught by the line above) becomes the CR it stands for.
    let raw = this.#text.includes('\r') ? this.#text.replace(/\r\n?/g, '\n') : this.#text;
    if (raw.includes(CR_REFERENCE)) raw = raw.replaceAll(CR_REFERENCE, '\r');
    this.#text = '';
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
    scanner.mark = -1;
  }

  #setField(group: string, name: string, value: string): void {
    switch (group) {
      case '':
        setPageField(this.#page!, name, value, this);
        return;
      case 'sitemap':
        this.#referenceField(name, value);
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
        setFeedField(this.#page!, group, name, value, this);
    }
  }

  #pathOf(group: string, name: string): string {
    const page = this.#page;
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

  #referenceField(name: string, value: string): void {
    const ref = this.#ref!;
    if (name === 'loc') {
      ref.hadLoc = true;
      if (value === '') {
        this.rep.report('loc-missing', '<loc> is empty; index entry dropped', this.at());
        return;
      }
      const url = urlValue(value, this.rep, this.at);
      if (url !== undefined) ref.loc = url;
    } else {
      const v = this.dates.read(value, this.rep, this.at);
      if (v !== undefined) ref.lastmod = v;
    }
  }

  #endPage(): void {
    const page = this.#page!;
    this.#page = undefined;
    if (page.loc === undefined) {
      if (!page.hadLoc) this.rep.report('loc-missing', '<url> has no <loc>; entry dropped', page.at);
      return;
    }
    this.#sink.emit(buildEntry(page), page.at);
  }

  #endReference(): void {
    const ref = this.#ref!;
    this.#ref = undefined;
    if (ref.loc === undefined) {
      if (!ref.hadLoc) this.rep.report('loc-missing', '<sitemap> has no <loc>; index entry dropped', ref.at);
      return;
    }
    const item: SitemapReference = { kind: 'sitemap', loc: ref.loc };
    if (ref.lastmod !== undefined) item.lastmod = ref.lastmod;
    this.#sink.emit(item, ref.at);
  }

  #endTvshow(): void {
    const tv = this.#tvshow!;
    this.#tvshow = undefined;
    if (tv.show_title === undefined) {
      this.rep.report(
        'value-invalid',
        '<video:tvshow> has no <video:show_title>; dropped',
        this.#where(this.#videoAt!, `videos[${this.#page!.videos?.length ?? 0}].tvshow`),
      );
      return;
    }
    this.#video!.tvshow ??= ordered(tv, TVSHOW_KEYS) as VideoTvshow;
  }
}
