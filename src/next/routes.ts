/**
 * The pages of a finished `next build`, from its manifests alone (pure: the manifests in, the
 * routes out). What Next.js prerendered (static pages, `generateStaticParams` /
 * `getStaticPaths` paths) is listed with its HTML; a page with a fixed path that is rendered on
 * request is listed by its URL; everything that is no HTML page is left out, each for a stated
 * reason: route handlers (an `app/server-sitemap.xml/route.ts`, `app/sitemap.ts`, an icon), API
 * routes, Next's own pages (`_app`, `_document`, `_error`, `_not-found`), the error pages and the
 * dynamic routes whose paths exist only at request time.
 */

/** Why a route of the build is not in the sitemap. */
export type NextLeftOutReason =
  | 'route-handler'
  | 'api-route'
  | 'internal'
  | 'error-page'
  | 'not-found'
  | 'dynamic-route'
  | 'intercepting-route';

/** The sentence each reason stands for, as the CLI prints it. */
export const LEFT_OUT_REASONS: Readonly<Record<NextLeftOutReason, string>> = {
  'route-handler': 'a route handler (route.js), which serves no HTML page',
  'api-route': 'an API route (pages/api), which serves no HTML page',
  internal: "one of Next.js's own pages (_app, _document, _error, _not-found)",
  'error-page': 'an error page (404, 500), which search engines must not list',
  'not-found': 'its getStaticProps answered notFound',
  'dynamic-route': 'a dynamic route without prerendered paths: its URLs exist only at request time',
  'intercepting-route':
    "an intercepting route ((.)photo): it shows another route's page, which is listed by its own URL",
};

/** A route of the build left out of the sitemap. */
export interface NextLeftOut {
  /** Its path (`/api/hello`) or, for a dynamic route, its pattern (`/shop/[id]`). */
  path: string;
  reason: NextLeftOutReason;
}

/** A page of the build. */
export interface NextRoute {
  /** Its path, decoded, as Next.js names it: `/`, `/blog/café`. */
  path: string;
  /** Which router serves it. */
  router: 'app' | 'pages';
  /** Its prerendered HTML, relative to the build's `server/` folder; none when it is rendered on request. */
  html?: string;
}

/** The parts of the manifests of `.next/` this module reads (each may be missing). */
export interface NextManifests {
  /** `app-path-routes-manifest.json`: `/blog/[slug]/page` → `/blog/[slug]`. */
  appPathRoutes?: Readonly<Record<string, string>>;
  /** `server/pages-manifest.json`: `/legacy` → `pages/legacy.html` (or `.js` when rendered on request). */
  pages?: Readonly<Record<string, string>>;
  /** `prerender-manifest.json`. */
  prerender?: {
    routes?: Readonly<Record<string, { srcRoute?: string | null; initialStatus?: number }>>;
    notFoundRoutes?: readonly string[];
  };
  /** `routes-manifest.json`'s pages-router locales. */
  i18n?: { locales?: readonly string[]; defaultLocale?: string } | null;
}

const INTERNAL = new Set(['/_app', '/_document', '/_error', '/_not-found', '/_global-error']);
const ERROR_PAGES = new Set(['/404', '/500']);

/** `(.)photo`, `(..)photo`, `(...)photo`: a route that shows another inside this layout. */
function isIntercepting(pattern: string): boolean {
  return /\/\(\.{1,3}\)|\/\(\.\.\)\(\.\.\)/.test(pattern);
}

function isDynamic(pattern: string): boolean {
  return pattern.includes('[');
}

/** Which pages a build serves and which of its routes are left out (sorted by path). */
export function routesFromManifests(m: NextManifests): { routes: NextRoute[]; leftOut: NextLeftOut[] } {
  const routes = new Map<string, NextRoute>();
  const leftOut = new Map<string, NextLeftOut>();
  const leave = (path: string, reason: NextLeftOutReason): void => {
    if (!leftOut.has(path)) leftOut.set(path, { path, reason });
  };
  // Route patterns by kind, from the two routers' manifests.
  const handlers = new Set<string>();
  const appPages = new Set<string>();
  for (const [key, route] of Object.entries(m.appPathRoutes ?? {})) {
    if (key.endsWith('/route')) handlers.add(route);
    else if (isIntercepting(route)) leave(route, 'intercepting-route');
    else appPages.add(route);
  }
  const pagesPages = new Map<string, string>();
  for (const [route, file] of Object.entries(m.pages ?? {})) {
    if (INTERNAL.has(route)) leave(route, 'internal');
    else if (ERROR_PAGES.has(route)) leave(route, 'error-page');
    else if (route === '/api' || route.startsWith('/api/')) leave(route, 'api-route');
    else pagesPages.set(route, file);
  }
  const locale = localeStripper(m.i18n);
  // Every path Next.js prerendered, by the pattern it came from.
  const covered = new Set<string>();
  const notFound = new Set(m.prerender?.notFoundRoutes ?? []);
  for (const [rawPath, info] of Object.entries(m.prerender?.routes ?? {})) {
    const pattern = info.srcRoute ?? rawPath;
    covered.add(pattern);
    const path = locale(rawPath);
    if (handlers.has(pattern)) leave(path, 'route-handler');
    else if (INTERNAL.has(pattern) || INTERNAL.has(path)) leave(path, 'internal');
    else if (ERROR_PAGES.has(path) || info.initialStatus === 404) leave(path, 'error-page');
    else if (notFound.has(rawPath)) leave(path, 'not-found');
    else if (!routes.has(path)) {
      const app = appPages.has(pattern);
      const file = app ? appHtml(rawPath) : `pages${rawPath === '/' ? '/index' : rawPath}.html`;
      routes.set(path, { path, router: app ? 'app' : 'pages', html: file });
    }
  }
  for (const pattern of handlers) if (!covered.has(pattern)) leave(pattern, 'route-handler');
  const unprerendered = (pattern: string, router: 'app' | 'pages', html?: string): void => {
    if (covered.has(pattern) || routes.has(pattern)) return;
    if (INTERNAL.has(pattern)) leave(pattern, 'internal');
    else if (ERROR_PAGES.has(pattern)) leave(pattern, 'error-page');
    else if (isDynamic(pattern)) leave(pattern, 'dynamic-route');
    else routes.set(pattern, { path: pattern, router, ...(html !== undefined && { html }) });
  };
  for (const pattern of appPages) unprerendered(pattern, 'app');
  // A pages-router page without data is written as HTML at build time (pages-manifest names the
  // .html); one with getServerSideProps is rendered on request (a .js).
  for (const [pattern, file] of pagesPages)
    unprerendered(pattern, 'pages', file.endsWith('.html') ? file : undefined);
  const byPath = <T extends { path: string }>(a: T, b: T): number =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  return { routes: [...routes.values()].sort(byPath), leftOut: [...leftOut.values()].sort(byPath) };
}

function appHtml(path: string): string {
  return `app${path === '/' ? '/index' : path}.html`;
}

/** With pages-router i18n, the default locale's paths lose their prefix (as Next serves them). */
function localeStripper(i18n: NextManifests['i18n']): (path: string) => string {
  const def = i18n?.defaultLocale;
  if (def === undefined || def === '') return (p) => p;
  const prefix = `/${def}`;
  return (p) => (p === prefix ? '/' : p.startsWith(`${prefix}/`) ? p.slice(prefix.length) : p);
}
