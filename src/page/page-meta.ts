/**
 * Reads what sitemapkit needs from an HTML page in one streaming htmlparser2 pass: title, base
 * href, canonical, meta robots (generic and per agent), hreflang alternates, links (with
 * rel=nofollow), images, and modification dates (JSON-LD dateModified, article:modified_time).
 * Shared by the writer's `--from-dir`, the crawler and the validator.
 */
import { Parser } from 'htmlparser2';

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

/** Parses a whole HTML document (pages are size-capped by their callers). */
export function readPageMeta(html: string): PageMeta {
  const meta: PageMeta = {
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
    charset: undefined,
  };
  let inTitle = false;
  let title = '';
  let inJsonLd = false;
  let jsonLd = '';
  const parser = new Parser(
    {
      onopentag(name, a) {
        switch (name) {
          case 'title':
            if (meta.title === undefined) inTitle = true;
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
              inJsonLd = true;
              jsonLd = '';
            }
            break;
        }
      },
      ontext(text) {
        if (inTitle) title += text;
        if (inJsonLd) jsonLd += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          meta.title = title.replace(/\s+/g, ' ').trim();
        } else if (name === 'script' && inJsonLd) {
          inJsonLd = false;
          if (meta.jsonLdDateModified === undefined) {
            try {
              meta.jsonLdDateModified = findDateModified(JSON.parse(jsonLd));
            } catch {
              // Broken JSON-LD is common; it simply states no date.
            }
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (inTitle) meta.title = title.replace(/\s+/g, ' ').trim();
  return meta;
}

/** Whether the directives keep a page out of the index (`noindex` or `none`). */
export function isNoindex(directivesList: readonly string[]): boolean {
  return directivesList.includes('noindex') || directivesList.includes('none');
}
