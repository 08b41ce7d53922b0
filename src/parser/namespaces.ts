/**
 * Namespace classification for sitemaps and feeds: exact URIs, the misspellings seen in the wild
 * (https, trailing slash, Google's 0.84 and 0.9), and the conventional prefixes used without a
 * declaration.
 */
import { IMAGE_NS, MOBILE_NS, NEWS_NS, SITEMAP_NS, VIDEO_NS, XHTML_NS } from '../core/limits.js';

/** No namespace at all. */
export const NS_NONE = 0;
export const NS_SITEMAP = 1;
export const NS_IMAGE = 2;
export const NS_VIDEO = 3;
export const NS_NEWS = 4;
export const NS_XHTML = 5;
export const NS_MOBILE = 6;
export const NS_ATOM = 7;
export const NS_MEDIA = 8;
/** RSS 1.0 / RDF: read like RSS 2.0. */
export const NS_RSS1 = 9;
export const NS_OTHER = 10;

export const ATOM_NS = 'http://www.w3.org/2005/Atom';
export const ATOM03_NS = 'http://purl.org/atom/ns#';
export const MEDIA_NS = 'http://search.yahoo.com/mrss/';

export interface NamespaceClass {
  ns: number;
  /** False when the URI is a known variant of the right one (wrong scheme, version, trailing slash). */
  exact: boolean;
}

const EXACT = new Map<string, number>([
  ['', NS_NONE],
  [SITEMAP_NS, NS_SITEMAP],
  [IMAGE_NS, NS_IMAGE],
  [VIDEO_NS, NS_VIDEO],
  [NEWS_NS, NS_NEWS],
  [XHTML_NS, NS_XHTML],
  [MOBILE_NS, NS_MOBILE],
  [ATOM_NS, NS_ATOM],
  [ATOM03_NS, NS_ATOM],
  [MEDIA_NS, NS_MEDIA],
  ['http://purl.org/rss/1.0/', NS_RSS1],
  ['http://www.w3.org/1999/02/22-rdf-syntax-ns#', NS_RSS1],
]);

const LOOSE: ReadonlyArray<readonly [RegExp, number]> = [
  [/sitemap-image/, NS_IMAGE],
  [/sitemap-video/, NS_VIDEO],
  [/sitemap-news/, NS_NEWS],
  [/sitemap-mobile/, NS_MOBILE],
  [/sitemaps\.org\/schemas\/sitemap|google\.com\/schemas\/sitemap\//, NS_SITEMAP],
  [/w3\.org\/1999\/xhtml/, NS_XHTML],
  [/search\.yahoo\.com\/mrss/, NS_MEDIA],
  [/w3\.org\/2005\/atom|purl\.org\/atom/, NS_ATOM],
];

export function classifyNamespace(uri: string): NamespaceClass {
  const exact = EXACT.get(uri);
  if (exact !== undefined) return { ns: exact, exact: true };
  const u = uri.trim().toLowerCase();
  for (const [re, ns] of LOOSE) if (re.test(u)) return { ns, exact: false };
  return { ns: NS_OTHER, exact: true };
}

/** The namespace a conventional prefix stands for when a document forgets to declare it. */
export const CONVENTIONAL_PREFIXES: ReadonlyMap<string, number> = new Map([
  ['image', NS_IMAGE],
  ['video', NS_VIDEO],
  ['news', NS_NEWS],
  ['xhtml', NS_XHTML],
  ['mobile', NS_MOBILE],
  ['media', NS_MEDIA],
  ['atom', NS_ATOM],
]);

/** The URI to name in a message about a namespace class. */
export function namespaceUri(ns: number): string {
  switch (ns) {
    case NS_SITEMAP:
      return SITEMAP_NS;
    case NS_IMAGE:
      return IMAGE_NS;
    case NS_VIDEO:
      return VIDEO_NS;
    case NS_NEWS:
      return NEWS_NS;
    case NS_XHTML:
      return XHTML_NS;
    case NS_MOBILE:
      return MOBILE_NS;
    case NS_ATOM:
      return ATOM_NS;
    case NS_MEDIA:
      return MEDIA_NS;
    default:
      return '';
  }
}
