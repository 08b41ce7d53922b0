/**
 * The browser view that needs no XSLT: every served sitemap file has an HTML twin (`sitemap.html`,
 * `sitemap-00001.html`), a plain page listing its URLs or children. The XML is never changed by
 * content negotiation: crawlers always get the same bytes at the `.xml` URL.
 */
import type { SitemapEntry } from '../core/entry.js';
/**
 * What the view needs of the handler's options: the site's name. Links between views and to the
 * XML are relative (every file of a set is in one folder), so a view works under any host or proxy.
 */
export interface ViewSite {
  siteName: string;
  /** What the XML files' names end with: `.xml`, or `.xml.gz` for a gzipped set (`.txt` for a text set). @default '.xml' */
  xmlSuffix?: string;
  /** What the index's name ends with, when not `xmlSuffix` (a text set's index is XML). @default xmlSuffix */
  indexSuffix?: string;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

const STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1d1d1f}' +
  'h1{font-size:1.4rem;margin:0 0 .25rem}p{color:#555;margin:.25rem 0 1rem}' +
  'table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e3e3;vertical-align:top}' +
  'th{background:#f5f5f7;position:sticky;top:0}td.n{color:#777;white-space:nowrap}a{color:#0a58ca;word-break:break-all}';

function head(o: ViewSite, title: string, intro: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${esc(title)} · ${esc(o.siteName)}</title><style>${STYLE}</style></head><body>` +
    `<h1>${esc(title)}</h1><p>${intro}</p>`
  );
}

/** The page's start for a urlset: its title, a link to the XML itself, and the table's head. */
export function htmlUrlsetHead(o: ViewSite, name: string): string {
  const xml = `${name}${o.xmlSuffix ?? '.xml'}`;
  return (
    head(
      o,
      `Sitemap ${xml}`,
      `The URLs of <a href="${esc(xml)}">${esc(xml)}</a> on ${esc(o.siteName)}, as search engines read them.${name === 'sitemap' ? '' : ' Back to <a href="sitemap.html">all sitemaps</a>.'}`,
    ) +
    '<table><thead><tr><th>URL</th><th>Last modified</th><th>Change frequency</th><th>Priority</th></tr></thead><tbody>\n'
  );
}

/** One row: the URL as a link, and its optional fields. */
export function htmlUrlRow(e: SitemapEntry): string {
  const loc = esc(e.loc);
  return `<tr><td><a href="${loc}">${loc}</a></td><td class="n">${e.lastmod === undefined ? '' : esc(e.lastmod)}</td><td class="n">${e.changefreq ?? ''}</td><td class="n">${e.priority === undefined ? '' : e.priority.toFixed(1)}</td></tr>\n`;
}

export function htmlUrlsetFoot(): string {
  return '</tbody></table></body></html>\n';
}

/** The view of the index: each child with links to its view and to its XML. */
export function htmlIndex(
  o: ViewSite,
  children: ReadonlyArray<{ name: string; lastmod: string | undefined }>,
): string {
  const suffix = esc(o.xmlSuffix ?? '.xml');
  const index = `sitemap${esc(o.indexSuffix ?? o.xmlSuffix ?? '.xml')}`;
  let s = head(
    o,
    `Sitemap index ${index}`,
    `The ${children.length} sitemaps of ${esc(o.siteName)} listed by <a href="${index}">${index}</a>.`,
  );
  s += `<table><thead><tr><th>Sitemap</th><th>${suffix === '.txt' ? 'Text' : 'XML'}</th><th>Last modified</th></tr></thead><tbody>\n`;
  for (const c of children) {
    s += `<tr><td><a href="${esc(c.name)}.html">${esc(c.name)}</a></td><td><a href="${esc(c.name + suffix)}">${esc(c.name + suffix)}</a></td><td class="n">${c.lastmod === undefined ? '' : esc(c.lastmod)}</td></tr>\n`;
  }
  return `${s}</tbody></table></body></html>\n`;
}
