// The page reader as it was before the lean parser (git 91f591d, src/page/page-meta.ts), kept
// verbatim as the oracle for page-meta-lean.test.ts: the new reader must find exactly what it found.
import { Parser } from 'htmlparser2';
import type { PageMeta } from '../../src/page/page-meta.js';

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

// JSON-LD blocks beyond this are not parsed: a date is near the top, and a hostile page must not
// make the reader buffer megabytes of script text.
const MAX_JSON_LD_CHARS = 1_000_000;

/**
 * The streaming form of {@link readPageMeta}: feed decoded text in chunks of any size with
 * `write`, then call `end` once. Memory holds the findings, never the page, so a crawler can read
 * pages as they arrive and stop at a size cap. Chunk boundaries do not change the result.
 */
export class OraclePageMetaReader {
  readonly #meta: PageMeta = emptyMeta();
  readonly #parser: Parser;
  #inTitle = false;
  #title = '';
  #inJsonLd = false;
  #jsonLd = '';
  #ended = false;

  constructor() {
    const meta = this.#meta;
    this.#parser = new Parser(
      {
        onopentag: (name, a) => {
          switch (name) {
            case 'title':
              if (meta.title === undefined) this.#inTitle = true;
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
                this.#jsonLd = '';
              }
              break;
          }
        },
        ontext: (text) => {
          if (this.#inTitle) this.#title += text;
          if (this.#inJsonLd && this.#jsonLd.length < MAX_JSON_LD_CHARS) this.#jsonLd += text;
        },
        onclosetag: (name) => {
          if (name === 'title' && this.#inTitle) {
            this.#inTitle = false;
            meta.title = this.#title.replace(/\s+/g, ' ').trim();
          } else if (name === 'script' && this.#inJsonLd) {
            this.#inJsonLd = false;
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
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
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
}

/** Parses a whole HTML document (pages are size-capped by their callers). */
