/**
 * Reads what sitemapkit needs from an HTML page in one streaming htmlparser2 pass: title, base
 * href, canonical, meta robots (generic and per agent), hreflang alternates, links (with
 * rel=nofollow), images, and modification dates (JSON-LD dateModified, article:modified_time).
 * Shared by the writer's `--from-dir`, the crawler and the validator.
 */
import { Parser } from 'htmlparser2';
import { HEAD_ELEMENTS, MainTextHash, NON_TEXT_ELEMENTS } from './main-text.js';

export interface PageLink {
  href: string;
  nofollow: boolean;
}

export interface PageMeta {
  title: string | undefined;
  baseHref: string | undefined;
  canonical: string | undefined;
  /** Directives of `<meta name="robots">`, lower-cased (`noindex`, `nofollow`, `none`, …). */
  robots: string[];
  /** Directives of `<meta name="AGENT">` by lower-cased agent name (`googlebot`, `bingbot`, …). */
  agentRobots: Record<string, string[]>;
  alternates: Array<{ hreflang: string; href: string }>;
  links: PageLink[];
  images: string[];
  /** JSON-LD `dateModified`, when a script states one. */
  jsonLdDateModified: string | undefined;
  /** `<meta property="article:modified_time">`. */
  articleModifiedTime: string | undefined;
  /** The first `<meta name="description">`'s content, trimmed (for the crawl report's length column). */
  description: string | undefined;
  charset: string | undefined;
}

const AGENT_META = /^[a-z][a-z0-9_-]*bot$|^googlebot-news$|^slurp$/;

function directives(content: string | undefined): string[] {
  if (content === undefined) return [];
  return content
    .toLowerCase()
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function findDateModified(v: unknown, depth = 0): string | undefined {
  if (depth > 8 || typeof v !== 'object' || v === null) return undefined;
  if (Array.isArray(v)) {
    for (const x of v) {
      const d = findDateModified(x, depth + 1);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const o = v as Record<string, unknown>;
  if (typeof o['dateModified'] === 'string') return o['dateModified'];
  for (const k of ['@graph', 'mainEntity', 'mainEntityOfPage']) {
    const d = findDateModified(o[k], depth + 1);
    if (d !== undefined) return d;
  }
  return undefined;
}

function emptyMeta(): PageMeta {
  return {
    title: undefined,
    baseHref: undefined,
    canonical: undefined,
    robots: [],
    agentRobots: {},
    alternates: [],
    links: [],
    images: [],
    jsonLdDateModified: undefined,
    articleModifiedTime: undefined,
    description: undefined,
    charset: undefined,
  };
}

// The only tags whose attributes the reader looks at.
const WANTED_TAGS: ReadonlySet<string> = new Set([
  'title',
  'base',
  'link',
  'meta',
  'a',
  'area',
  'img',
  'script',
]);

/**
 * htmlparser2's Parser, minus the work the reader throws away: most of a page is tags whose
 * attributes it never reads and text outside `<title>` and JSON-LD. Those attributes and that text
 * are not sliced out of the input, and their entities are not decoded: the Tokenizer then skips
 * text with indexOf instead of a character at a time. Entities never change where tags start or
 * end (an entity stops at `<`), so tokenising, the element stack and the implied and end-of-input
 * closes stay the Parser's own, and the events the reader sees are exactly the Parser's
 * (test/crawler/page-meta-lean.test.ts holds it to the full Parser).
 *
 * The class is made on first use, not when this module loads: extending Parser reads htmlparser2,
 * which the CLI's script bundles then require only when a page is read (a one-URL `validate` or
 * `generate` of a text file never reads one; requiring htmlparser2 cost it 22 ms of CPU).
 */
function defineLeanParser() {
  return class LeanParser extends Parser {
    #attributes = false;
    #text = false;
    /** Text is reported as written, entities undecoded (the main text: the caller decodes it in bulk). */
    #raw = false;
    // Parser's tokenizer and its decodeEntities flag are private in the typings, not at run time.
    // Were either renamed in a later htmlparser2, this sets an unused property and every entity is
    // decoded, as before: slower, never wrong.
    readonly #tokenizer: { decodeEntities: boolean } = (
      this as unknown as {
        tokenizer?: { decodeEntities: boolean };
      }
    ).tokenizer ?? { decodeEntities: true };

    constructor(cbs: ConstructorParameters<typeof Parser>[0]) {
      super(cbs, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
      this.#sync();
    }

    /** A tag's name was read: its attributes follow, and are read if `wanted`. */
    beginTag(wanted: boolean): void {
      this.#attributes = wanted;
      this.#sync();
    }
    /** The open tag is complete (its attributes are read). */
    endTag(): void {
      this.#attributes = false;
      this.#sync();
    }
    /** Whether text is collected from now on (inside `<title>` or a JSON-LD script). */
    collectText(on: boolean): void {
      this.#text = on;
      this.#sync();
    }
    /**
     * Whether text is reported undecoded while it is not collected (the main text of a recrawl):
     * the Tokenizer keeps skipping text with indexOf, which decoding would make a character at a time.
     */
    rawText(on: boolean): void {
      this.#raw = on;
    }
    #sync(): void {
      this.#tokenizer.decodeEntities = this.#attributes || this.#text;
    }

    override onattribname(start: number, endIndex: number): void {
      if (this.#attributes) super.onattribname(start, endIndex);
    }
    override onattribdata(start: number, endIndex: number): void {
      if (this.#attributes) super.onattribdata(start, endIndex);
    }
    override onattribentity(cp: number): void {
      if (this.#attributes) super.onattribentity(cp);
    }
    override onattribend(quote: Parameters<Parser['onattribend']>[0], endIndex: number): void {
      if (this.#attributes) super.onattribend(quote, endIndex);
    }
    override ontext(start: number, endIndex: number): void {
      if (this.#text || this.#raw) super.ontext(start, endIndex);
    }
    override ontextentity(cp: number, endIndex: number): void {
      if (this.#text) super.ontextentity(cp, endIndex);
    }
  };
}
type LeanParser = InstanceType<ReturnType<typeof defineLeanParser>>;
let LeanParserClass: ReturnType<typeof defineLeanParser> | undefined;

// JSON-LD blocks beyond this are not parsed: a date is near the top, and a hostile page must not
// make the reader buffer megabytes of script text.
const MAX_JSON_LD_CHARS = 1_000_000;

/** Options of {@link PageMetaReader}. */
export interface PageMetaReaderOptions {
  /**
   * Also fingerprint the page's main text (src/page/main-text.ts says what counts), for
   * {@link PageMetaReader.fingerprint}. Off, the reader skips body text without decoding it.
   * @default false
   */
  fingerprint?: boolean;
}

/**
 * The streaming form of {@link readPageMeta}: feed decoded text in chunks of any size with
 * `write`, then call `end` once. Memory holds the findings, never the page, so a crawler can read
 * pages as they arrive and stop at a size cap. Chunk boundaries do not change the result.
 */
export class PageMetaReader {
  readonly #meta: PageMeta = emptyMeta();
  readonly #parser: LeanParser;
  #inTitle = false;
  #title = '';
  #inJsonLd = false;
  #jsonLd = '';
  #ended = false;
  /** The main text's hash, when fingerprinting. */
  readonly #main: MainTextHash | undefined;
  #inHead = false;
  /** Open elements whose content is not main text (script, style, noscript, template). */
  #skip = 0;
  #digest: string | undefined;

  constructor(options: PageMetaReaderOptions = {}) {
    const meta = this.#meta;
    const main = options.fingerprint === true ? new MainTextHash() : undefined;
    this.#main = main;
    LeanParserClass ??= defineLeanParser();
    this.#parser = new LeanParserClass({
      // Called before the tag's attributes are read (and for the tags Parser implies).
      onopentagname: (name) => {
        this.#parser.beginTag(WANTED_TAGS.has(name));
      },
      onopentag: (name, a) => {
        this.#parser.endTag();
        if (main !== undefined) {
          if (name === 'head') this.#inHead = true;
          else if (this.#inHead && !HEAD_ELEMENTS.has(name)) this.#inHead = false;
          if (NON_TEXT_ELEMENTS.has(name)) this.#skip++;
          this.#parser.rawText(this.#inMain());
        }
        switch (name) {
          case 'title':
            // Only the first title is read: the text of a later one (an SVG's) is not decoded.
            if (meta.title === undefined) {
              this.#inTitle = true;
              this.#parser.collectText(true);
            }
            break;
          case 'base':
            if (meta.baseHref === undefined && a['href'] !== undefined) meta.baseHref = a['href'];
            break;
          case 'link': {
            const rel = directives(a['rel']);
            if (rel.includes('canonical') && meta.canonical === undefined && a['href'] !== undefined)
              meta.canonical = a['href'];
            if (rel.includes('alternate') && a['hreflang'] !== undefined && a['href'] !== undefined) {
              meta.alternates.push({ hreflang: a['hreflang'].trim(), href: a['href'].trim() });
            }
            break;
          }
          case 'meta': {
            const n = a['name']?.trim().toLowerCase();
            // Only the first description counts, as search engines read it.
            if (n === 'description' && a['content'] !== undefined) meta.description ??= a['content'].trim();
            if (n === 'robots') meta.robots.push(...directives(a['content']));
            else if (n !== undefined && AGENT_META.test(n)) {
              const list = meta.agentRobots[n] ?? [];
              list.push(...directives(a['content']));
              meta.agentRobots[n] = list;
            }
            if (
              a['property']?.trim().toLowerCase() === 'article:modified_time' &&
              a['content'] !== undefined
            ) {
              meta.articleModifiedTime ??= a['content'].trim();
            }
            if (a['charset'] !== undefined) meta.charset ??= a['charset'].trim().toLowerCase();
            else if (a['http-equiv']?.toLowerCase() === 'content-type') {
              const m = /charset=([^;\s]+)/i.exec(a['content'] ?? '');
              if (m !== null) meta.charset ??= m[1]!.toLowerCase();
            }
            break;
          }
          case 'a':
          case 'area':
            if (a['href'] !== undefined)
              meta.links.push({ href: a['href'], nofollow: directives(a['rel']).includes('nofollow') });
            break;
          case 'img':
            if (a['src'] !== undefined && a['src'].trim() !== '') meta.images.push(a['src'].trim());
            if (a['srcset'] !== undefined) {
              for (const part of a['srcset'].split(',')) {
                const url = part.trim().split(/\s+/)[0];
                if (url !== undefined && url !== '') meta.images.push(url);
              }
            }
            break;
          case 'script':
            if (a['type']?.trim().toLowerCase() === 'application/ld+json') {
              this.#inJsonLd = true;
              this.#parser.collectText(true);
              this.#jsonLd = '';
            }
            break;
        }
      },
      ontext: (text) => {
        if (this.#inTitle) this.#title += text;
        if (this.#inJsonLd && this.#jsonLd.length < MAX_JSON_LD_CHARS) this.#jsonLd += text;
        // Main text arrives undecoded (decoded text is a title or JSON-LD, never main text).
        if (main !== undefined && !this.#inTitle && !this.#inJsonLd && this.#inMain()) main.push(text);
      },
      onclosetag: (name) => {
        if (main !== undefined) {
          if (name === 'head') this.#inHead = false;
          if (NON_TEXT_ELEMENTS.has(name) && this.#skip > 0) this.#skip--;
          this.#parser.rawText(this.#inMain());
        }
        if (name === 'title' && this.#inTitle) {
          this.#inTitle = false;
          this.#parser.collectText(this.#inJsonLd);
          meta.title = this.#title.replace(/\s+/g, ' ').trim();
        } else if (name === 'script' && this.#inJsonLd) {
          this.#inJsonLd = false;
          this.#parser.collectText(this.#inTitle);
          if (meta.jsonLdDateModified === undefined && this.#jsonLd.length < MAX_JSON_LD_CHARS) {
            try {
              meta.jsonLdDateModified = findDateModified(JSON.parse(this.#jsonLd));
            } catch {
              // Broken JSON-LD is common; it simply states no date.
            }
          }
          this.#jsonLd = '';
        }
      },
    });
  }

  /** Whether text here is main text (when fingerprinting). */
  #inMain(): boolean {
    return this.#main !== undefined && !this.#inHead && this.#skip === 0;
  }

  /** Feeds the next piece of the page's text. */
  write(text: string): void {
    if (this.#ended) throw new Error('PageMetaReader.write() after end()');
    this.#parser.write(text);
  }

  /** Finishes the page (an unclosed `<title>` still counts) and returns what was found. */
  end(): PageMeta {
    if (!this.#ended) {
      this.#ended = true;
      this.#parser.end();
      if (this.#inTitle) this.#meta.title = this.#title.replace(/\s+/g, ' ').trim();
    }
    return this.#meta;
  }

  /**
   * The fingerprint of the page's title and main text (after {@link end}); undefined unless the
   * reader was made with `fingerprint: true`.
   */
  fingerprint(): string | undefined {
    if (this.#main === undefined || !this.#ended) return undefined;
    this.#digest ??= this.#main.digest(this.#meta.title);
    return this.#digest;
  }
}

/** Parses a whole HTML document (pages are size-capped by their callers). */
export function readPageMeta(html: string): PageMeta {
  const reader = new PageMetaReader();
  reader.write(html);
  return reader.end();
}

/** Whether the directives keep a page out of the index (`noindex` or `none`). */
export function isNoindex(directivesList: readonly string[]): boolean {
  return directivesList.includes('noindex') || directivesList.includes('none');
}

/** The URL a page's relative references resolve against: its `<base href>` (itself resolved), or the page URL. */
export function resolvePageBase(pageUrl: string, baseHref: string | undefined): string {
  if (baseHref === undefined || baseHref.trim() === '') return pageUrl;
  try {
    return new URL(baseHref.trim(), pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** An http(s) URL, without fragment, for a reference in a page; undefined for data:, javascript:, unparseable. */
export function absoluteHttpUrl(ref: string, base: string): string | undefined {
  try {
    const u = new URL(ref.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}
