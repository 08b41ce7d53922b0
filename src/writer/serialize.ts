/**
 * Pure serialisers: normalised entries → XML or text strings. No I/O, no validation (entries come
 * from `normalizeEntry`). Child order follows the XSDs: loc, lastmod, changefreq, priority, then the
 * extension elements, each in its own schema's order.
 */
import type { ImageEntry, NewsEntry, SitemapEntry, VideoEntry } from '../core/entry.js';
import { IMAGE_NS, MOBILE_NS, NEWS_NS, SITEMAP_NS, VIDEO_NS, XHTML_NS } from '../core/limits.js';
import { escapeAttr, escapeUri, escapeXml as x } from '../core/xml.js';

export type Extension = 'image' | 'video' | 'news' | 'xhtml' | 'mobile';

export const EXTENSION_NS: Readonly<Record<Extension, string>> = {
  image: IMAGE_NS,
  video: VIDEO_NS,
  news: NEWS_NS,
  xhtml: XHTML_NS,
  mobile: MOBILE_NS,
};

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

function stylesheetPi(xsl: string | undefined): string {
  return xsl === undefined ? '' : `<?xml-stylesheet type="text/xsl" href="${x(xsl)}"?>\n`;
}

/** Whether an entry uses any extension (the hot path asks this once per URL; no allocation). */
export function hasExtensions(e: SitemapEntry): boolean {
  return (
    e.alternates !== undefined ||
    e.images !== undefined ||
    e.videos !== undefined ||
    e.news !== undefined ||
    e.mobile === true
  );
}

/** The extensions an entry uses. */
export function extensionsOf(e: SitemapEntry): Extension[] {
  const out: Extension[] = [];
  if (e.alternates !== undefined) out.push('xhtml');
  if (e.images !== undefined) out.push('image');
  if (e.videos !== undefined) out.push('video');
  if (e.news !== undefined) out.push('news');
  if (e.mobile === true) out.push('mobile');
  return out;
}

/** `<?xml …?>` and the opening `<urlset>` with the given extension namespaces declared. */
export function urlsetOpen(declared: ReadonlySet<Extension>, xsl?: string): string {
  let ns = `xmlns="${SITEMAP_NS}"`;
  for (const ext of ['image', 'video', 'news', 'xhtml', 'mobile'] as const) {
    if (declared.has(ext)) ns += ` xmlns:${ext}="${EXTENSION_NS[ext]}"`;
  }
  return `${XML_DECLARATION}${stylesheetPi(xsl)}<urlset ${ns}>\n`;
}

export const URLSET_CLOSE = '</urlset>\n';

export function indexOpen(xsl?: string): string {
  return `${XML_DECLARATION}${stylesheetPi(xsl)}<sitemapindex xmlns="${SITEMAP_NS}">\n`;
}

export const INDEX_CLOSE = '</sitemapindex>\n';

export function indexItem(loc: string, lastmod?: string): string {
  return `<sitemap><loc>${x(loc)}</loc>${lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`}</sitemap>\n`;
}

// An element whose namespace the file did not declare up front carries its own declaration, so a
// file is always namespace-well-formed without buffering it.
function open(ext: Extension, local: string, declared: ReadonlySet<Extension>, attrs = ''): string {
  return declared.has(ext)
    ? `<${ext}:${local}${attrs}>`
    : `<${ext}:${local} xmlns:${ext}="${EXTENSION_NS[ext]}"${attrs}>`;
}

function el(p: string, name: string, value: string | number | undefined, attrs = ''): string {
  return value === undefined
    ? ''
    : `<${p}:${name}${attrs}>${typeof value === 'number' ? value : x(value)}</${p}:${name}>`;
}

function attr(name: string, value: string | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeAttr(value)}"`;
}

function imageXml(img: ImageEntry, declared: ReadonlySet<Extension>): string {
  return `${open('image', 'image', declared)}${el('image', 'loc', img.loc)}${el('image', 'caption', img.caption)}${el('image', 'geo_location', img.geo_location)}${el('image', 'title', img.title)}${el('image', 'license', img.license)}</image:image>`;
}

function videoXml(v: VideoEntry, declared: ReadonlySet<Extension>): string {
  let s = open('video', 'video', declared);
  s +=
    el('video', 'thumbnail_loc', v.thumbnail_loc) +
    el('video', 'title', v.title) +
    el('video', 'description', v.description);
  s += el('video', 'content_loc', v.content_loc);
  if (v.player_loc !== undefined) {
    s += el(
      'video',
      'player_loc',
      v.player_loc.loc,
      attr('allow_embed', v.player_loc.allow_embed) + attr('autoplay', v.player_loc.autoplay),
    );
  }
  s += el('video', 'duration', v.duration) + el('video', 'expiration_date', v.expiration_date);
  s += el('video', 'rating', v.rating === undefined ? undefined : v.rating.toString());
  for (const seg of v.content_segment_loc ?? []) s += el('video', 'content_segment_loc', seg);
  s += el('video', 'view_count', v.view_count) + el('video', 'publication_date', v.publication_date);
  for (const t of v.tag ?? []) s += el('video', 'tag', t);
  s += el('video', 'category', v.category) + el('video', 'family_friendly', v.family_friendly);
  if (v.restriction !== undefined)
    s += el(
      'video',
      'restriction',
      v.restriction.countries,
      attr('relationship', v.restriction.relationship),
    );
  if (v.gallery_loc !== undefined)
    s += el('video', 'gallery_loc', v.gallery_loc.loc, attr('title', v.gallery_loc.title));
  for (const p of v.price ?? []) {
    s += el(
      'video',
      'price',
      p.value,
      attr('currency', p.currency) + attr('type', p.type) + attr('resolution', p.resolution),
    );
  }
  s += el('video', 'requires_subscription', v.requires_subscription);
  if (v.uploader !== undefined) s += el('video', 'uploader', v.uploader.name, attr('info', v.uploader.info));
  if (v.tvshow !== undefined) {
    const t = v.tvshow;
    s += `<video:tvshow>${el('video', 'show_title', t.show_title)}${el('video', 'video_type', t.video_type)}${el('video', 'episode_title', t.episode_title)}${el('video', 'season_number', t.season_number)}${el('video', 'episode_number', t.episode_number)}${el('video', 'premier_date', t.premier_date)}</video:tvshow>`;
  }
  if (v.platform !== undefined)
    s += el('video', 'platform', v.platform.platforms, attr('relationship', v.platform.relationship));
  s += el('video', 'live', v.live);
  for (const id of v.id ?? []) s += el('video', 'id', id.value, attr('type', id.type));
  return `${s}</video:video>`;
}

function newsXml(n: NewsEntry, declared: ReadonlySet<Extension>): string {
  return `${open('news', 'news', declared)}<news:publication>${el('news', 'name', n.publication.name)}${el('news', 'language', n.publication.language)}</news:publication>${el('news', 'access', n.access)}${el('news', 'genres', n.genres)}${el('news', 'publication_date', n.publication_date)}${el('news', 'title', n.title)}${el('news', 'keywords', n.keywords)}${el('news', 'stock_tickers', n.stock_tickers)}</news:news>`;
}

const PRIORITY_TEXT: readonly string[] = Array.from({ length: 11 }, (_, i) => (i / 10).toFixed(1));

function priorityText(p: number): string {
  return PRIORITY_TEXT[Math.round(p * 10)] ?? p.toFixed(1);
}

/** One `<url>` element and its newline. */
export function urlXml(e: SitemapEntry, declared: ReadonlySet<Extension>): string {
  let s = `<url><loc>${escapeUri(e.loc)}</loc>`;
  if (e.lastmod !== undefined) s += `<lastmod>${e.lastmod}</lastmod>`;
  if (e.changefreq !== undefined) s += `<changefreq>${e.changefreq}</changefreq>`;
  if (e.priority !== undefined) s += `<priority>${priorityText(e.priority)}</priority>`;
  if (e.alternates !== undefined) {
    for (const a of e.alternates) {
      const tag = declared.has('xhtml') ? '<xhtml:link' : `<xhtml:link xmlns:xhtml="${XHTML_NS}"`;
      s += `${tag} rel="alternate" hreflang="${escapeAttr(a.hreflang)}" href="${escapeAttr(a.href)}"/>`;
    }
  }
  if (e.images !== undefined) for (const img of e.images) s += imageXml(img, declared);
  if (e.videos !== undefined) for (const v of e.videos) s += videoXml(v, declared);
  if (e.news !== undefined) s += newsXml(e.news, declared);
  if (e.mobile === true)
    s += declared.has('mobile') ? '<mobile:mobile/>' : `<mobile:mobile xmlns:mobile="${MOBILE_NS}"/>`;
  return `${s}</url>\n`;
}

/** One line of a text sitemap. */
export function textLine(e: SitemapEntry): string {
  return `${e.loc}\n`;
}
