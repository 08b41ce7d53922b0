/**
 * Pure rendering of the HTML site map: text escaping, the readable form of a URL, one list item
 * per link and the page shell. No I/O here; html-sitemap.ts decides what goes on which page.
 */
import { domainToUnicode } from 'node:url';
import { isW3cDatetime } from '../core/lastmod.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Characters HTML forbids in text (C0/C1 controls but whitespace, noncharacters, lone surrogates).
// They would make the page invalid and can hide text; U+FFFD shows the reader something was there.
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NEEDS_WORK =
  /[&<>"'\u0000-\u0008\u000B\u000E-\u001F\u007F-\u009F\uD800-\uDFFF\uFDD0-\uFDEF\uFFFE\uFFFF]/;

/** Escapes text for HTML content and quoted attribute values, replacing characters HTML forbids. */
export function escapeHtml(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text.replace(FORBIDDEN, '\uFFFD').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

// Invisible or layout-changing characters (controls, bidi and zero-width formatting, line
// separators) stay percent-encoded in the readable URL so it cannot pretend to be another address.
const KEEP_ENCODED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s]/u;

function decodeReadably(encoded: string): string {
  return encoded.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      // Not UTF-8 (for example Latin-1 %E9): show it as written.
      return run;
    }
    let out = '';
    for (const ch of decoded) out += KEEP_ENCODED.test(ch) && ch !== ' ' ? encodeURIComponent(ch) : ch;
    return out;
  });
}

/** The host as people read it: Unicode instead of punycode, with the port when there is one. */
export function readableHost(url: URL): string {
  const host = domainToUnicode(url.hostname) || url.hostname;
  return url.port === '' ? host : `${host}:${url.port}`;
}

/**
 * Link text for an entry without a title: the decoded path and query (`/blog/café?page=2`),
 * prefixed with the host when it is not the site's own (cross-submitted hosts) or for the home page.
 */
export function readableUrl(loc: string, siteHost: string): string {
  let url: URL;
  try {
    url = new URL(loc);
  } catch {
    return loc;
  }
  const path = decodeReadably(url.pathname + url.search);
  // A bare "/" says nothing to a reader: the home page shows as the host.
  return url.host === siteHost && path !== '/' ? path : `${readableHost(url)}${path}`;
}

/** Formats 1234567 as `1,234,567` without depending on the process locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** One `<li>` of a page: the link, and the last modification date when the entry has a valid one. */
export function renderItem(href: string, text: string, lastmod: string | undefined): string {
  let li = `<li><a href="${escapeHtml(href)}" dir="auto">${escapeHtml(text)}</a>`;
  if (lastmod !== undefined && isW3cDatetime(lastmod)) {
    li += ` <time datetime="${lastmod}">${lastmod.slice(0, 10)}</time>`;
  }
  return `${li}</li>\n`;
}

export interface Crumb {
  text: string;
  /** Omitted for the current page. */
  href?: string;
}

export interface PagerLinks {
  /** Accessible name of the pager, e.g. `Pages of products`. */
  label: string;
  /** Where the reader is, e.g. `Page 3`. */
  here: string;
  prev?: string;
  next?: string;
}

export interface PageShell {
  /** The document title (the tab text). */
  title: string;
  heading: string;
  crumbs: Crumb[];
  /** A short line under the heading (already escaped HTML). */
  summaryHtml: string;
  /** The main content (already escaped HTML). */
  bodyHtml: string;
  pager?: PagerLinks;
}

// One small style sheet for every page: readable without it, no web fonts, light and dark.
const STYLE = `:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6475;--line:#d9dde5;--accent:#1a5fb4;--bg:#fff}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ef;--muted:#a3abba;--line:#3a4150;--accent:#8cb6ff;--bg:#161a21}}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
header,main,footer{max-width:960px;margin:0 auto;padding:0 20px}
header{padding-top:20px}
.crumbs ol{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.4em;color:var(--muted);font-size:.9rem}
.crumbs li+li::before{content:"\\203A";margin-right:.4em}
h1{font-size:1.6rem;margin:.2em 0}
h2{font-size:1.25rem;margin:1.4em 0 .2em}
.summary{color:var(--muted);margin:0 0 1em}
a{color:var(--accent)}
ol.links{padding-left:4.5em;margin:0}
ol.links li{padding:.15em 0;overflow-wrap:anywhere}
ol.links time{color:var(--muted);font-size:.85rem;margin-left:.5em;white-space:nowrap}
ul.pages{list-style:none;padding:0;margin:.4em 0;display:flex;flex-wrap:wrap;gap:.4em}
ul.pages a{display:inline-block;padding:.2em .6em;border:1px solid var(--line);border-radius:4px;text-decoration:none}
ul.pages a:hover,ul.pages a:focus-visible{border-color:var(--accent)}
.pager{display:flex;gap:1em;align-items:center;flex-wrap:wrap;margin:1.2em 0;padding:.6em 0;border-top:1px solid var(--line)}
.pager .here{color:var(--muted)}
footer{color:var(--muted);font-size:.85rem;padding-bottom:24px}`;

function renderCrumbs(crumbs: readonly Crumb[]): string {
  const items = crumbs.map((c) =>
    c.href === undefined
      ? `<li aria-current="page">${escapeHtml(c.text)}</li>`
      : `<li><a href="${escapeHtml(c.href)}">${escapeHtml(c.text)}</a></li>`,
  );
  return `<nav class="crumbs" aria-label="Breadcrumb"><ol>${items.join('')}</ol></nav>`;
}

function renderPager(p: PagerLinks): string {
  const parts: string[] = [];
  if (p.prev !== undefined) parts.push(`<a rel="prev" href="${escapeHtml(p.prev)}">\u2190 Previous</a>`);
  parts.push(`<span class="here">${escapeHtml(p.here)}</span>`);
  if (p.next !== undefined) parts.push(`<a rel="next" href="${escapeHtml(p.next)}">Next \u2192</a>`);
  return `<nav class="pager" aria-label="${escapeHtml(p.label)}">${parts.join(' ')}</nav>\n`;
}

/** A complete, self-contained HTML5 document (inline CSS, no scripts, no external resources). */
export function renderPage(shell: PageShell): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(shell.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
${renderCrumbs(shell.crumbs)}
<h1>${escapeHtml(shell.heading)}</h1>
<p class="summary">${shell.summaryHtml}</p>
</header>
<main>
${shell.bodyHtml}${shell.pager === undefined ? '' : renderPager(shell.pager)}</main>
</body>
</html>
`;
}
