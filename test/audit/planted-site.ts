/** A small loopback site with one planted problem per page (and healthy pages around them), for the audit's tests. */
import {
  body,
  html,
  type Route,
  redirect,
  startServer,
  type TestServer,
  text,
} from '../support/http-server.js';

/** Each planted problem: its code and the path of its page. */
export const PLANTED: ReadonlyArray<[string, string]> = [
  ['audit-orphan', '/orphan'],
  ['audit-missing', '/not-listed'],
  ['audit-listed-noindex', '/noindex'],
  ['audit-listed-canonicalised', '/canon'],
  ['audit-listed-redirect', '/old'],
  ['audit-listed-broken', '/gone'],
  ['audit-listed-disallowed', '/private/x'],
  ['audit-listed-not-html', '/file.json'],
  ['audit-lastmod-stale', '/stale'],
  ['audit-lastmod-inflated', '/inflated'],
  ['audit-hreflang-not-reciprocal', '/en'],
  ['audit-title-duplicate', '/dup1'],
  ['audit-title-duplicate', '/dup2'],
  ['audit-title-missing', '/notitle'],
  ['audit-deep', '/l6'],
];

/** Paths of the healthy pages, listed and linked: none may be flagged. */
export const HEALTHY: readonly string[] = ['/', '/a', '/b', '/de', '/l1', '/l2', '/l3', '/l4', '/l5'];

const LINKED = [
  '/a',
  '/b',
  '/not-listed',
  '/noindex',
  '/canon',
  '/old',
  '/gone',
  '/private/x',
  '/file.json',
  '/stale',
  '/inflated',
  '/en',
  '/de',
  '/dup1',
  '/dup2',
  '/notitle',
  '/l1',
];

const IN_SITEMAP: ReadonlyArray<[string, string?]> = [
  ['/'],
  ['/a', '2025-03-01'],
  ['/b'],
  ['/de'],
  ['/l1'],
  ['/l2'],
  ['/l3'],
  ['/l4'],
  ['/l5'],
  ['/l6'],
  ['/orphan'],
  ['/noindex'],
  ['/canon'],
  ['/old'],
  ['/gone'],
  ['/private/x'],
  ['/file.json'],
  ['/stale', '2024-01-01'],
  ['/inflated', '2026-11-01'],
  ['/en'],
  ['/dup1'],
  ['/dup2'],
  ['/notitle'],
];

/** Starts the site; its sitemap is named in robots.txt. */
export async function startPlantedSite(): Promise<TestServer> {
  const routes: Record<string, Route> = {};
  const s = await startServer(routes);
  const o = s.origin;
  const links = LINKED.map((p) => `<a href="${p}">${p}</a>`).join(' ');
  Object.assign(routes, {
    '/robots.txt': text(`User-agent: *\nDisallow: /private/\n\nSitemap: ${o}/sitemap.xml\n`),
    '/sitemap.xml': body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${IN_SITEMAP.map(
        ([p, lastmod]) =>
          `<url><loc>${o}${p}</loc>${lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`}</url>`,
      ).join('\n')}\n</urlset>\n`,
    ),
    '/': html('Home', links),
    '/a': html('Page A', '<a href="/">home</a>'),
    '/b': html('Page B'),
    '/de': html('Deutsch'),
    '/orphan': html('Orphan'),
    '/not-listed': html('Not listed'),
    '/noindex': html('Noindex', '', '<meta name="robots" content="noindex">'),
    '/canon': html('Canonicalised', '', `<link rel="canonical" href="${o}/a">`),
    '/old': redirect(`${o}/b`, 301),
    '/gone': { status: 404, body: '<title>Not found</title>' },
    '/private/x': html('Private'),
    '/file.json': { headers: { 'content-type': 'application/json' }, body: '{}' },
    '/stale': html(
      'Stale',
      '<script type="application/ld+json">{"@type":"WebPage","dateModified":"2025-06-01"}</script>',
    ),
    '/inflated': {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'last-modified': 'Tue, 01 Jan 2019 00:00:00 GMT',
      },
      body: '<!doctype html><html><head><title>Inflated</title></head><body></body></html>',
    },
    '/en': html(
      'English',
      '',
      `<link rel="alternate" hreflang="en" href="${o}/en"><link rel="alternate" hreflang="de" href="${o}/de">`,
    ),
    '/dup1': html('Same'),
    '/dup2': html('Same'),
    '/notitle': html(''),
  });
  for (let i = 1; i <= 6; i++)
    routes[`/l${i}`] = html(`Level ${i}`, i < 6 ? `<a href="/l${i + 1}">next</a>` : '');
  return s;
}
