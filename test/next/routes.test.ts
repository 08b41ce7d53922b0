/**
 * The routes of a build from its manifests (src/next/routes.ts), on hand-made manifests of the
 * cases the fixture app does not build: ISR, pages-router i18n, getServerSideProps, a dynamic
 * route without prerendered paths, notFound, metadata routes.
 */
import { describe, expect, it } from 'vitest';
import { routesFromManifests } from '../../src/next/routes.js';

describe('routesFromManifests', () => {
  it('lists prerendered and request-time pages, and leaves out what serves no page, each for its reason', () => {
    const { routes, leftOut } = routesFromManifests({
      appPathRoutes: {
        '/page': '/',
        '/(shop)/shop/[id]/page': '/shop/[id]',
        '/dashboard/page': '/dashboard',
        '/feed/[id]/page': '/feed/[id]',
        '/sitemap.xml/route': '/sitemap.xml',
        '/robots.txt/route': '/robots.txt',
        '/icon.png/route': '/icon.png',
        '/api/items/route': '/api/items',
        '/_not-found/page': '/_not-found',
        '/@modal/(.)login/page': '/(.)login',
        '/feed/@modal/(..)photo/[id]/page': '/feed/(..)photo/[id]',
      },
      pages: {
        '/_app': 'pages/_app.js',
        '/_document': 'pages/_document.js',
        '/_error': 'pages/_error.js',
        '/404': 'pages/404.html',
        '/500': 'pages/500.html',
        '/api/ping': 'pages/api/ping.js',
        '/account': 'pages/account.js',
        '/terms': 'pages/terms.html',
        '/gone': 'pages/gone.js',
      },
      prerender: {
        routes: {
          '/': { srcRoute: '/' },
          '/shop/1': { srcRoute: '/shop/[id]' },
          '/shop/2': { srcRoute: '/shop/[id]' },
          '/robots.txt': { srcRoute: '/robots.txt' },
          '/_not-found': { srcRoute: '/_not-found', initialStatus: 404 },
          '/gone': { srcRoute: null },
        },
        notFoundRoutes: ['/gone'],
      },
    });
    expect(routes).toEqual([
      { path: '/', router: 'app', html: 'app/index.html' },
      { path: '/account', router: 'pages' },
      { path: '/dashboard', router: 'app' },
      { path: '/shop/1', router: 'app', html: 'app/shop/1.html' },
      { path: '/shop/2', router: 'app', html: 'app/shop/2.html' },
      { path: '/terms', router: 'pages', html: 'pages/terms.html' },
    ]);
    expect(leftOut).toEqual([
      { path: '/(.)login', reason: 'intercepting-route' },
      { path: '/404', reason: 'error-page' },
      { path: '/500', reason: 'error-page' },
      { path: '/_app', reason: 'internal' },
      { path: '/_document', reason: 'internal' },
      { path: '/_error', reason: 'internal' },
      { path: '/_not-found', reason: 'internal' },
      { path: '/api/items', reason: 'route-handler' },
      { path: '/api/ping', reason: 'api-route' },
      { path: '/feed/(..)photo/[id]', reason: 'intercepting-route' },
      { path: '/feed/[id]', reason: 'dynamic-route' },
      { path: '/gone', reason: 'not-found' },
      { path: '/icon.png', reason: 'route-handler' },
      { path: '/robots.txt', reason: 'route-handler' },
      { path: '/sitemap.xml', reason: 'route-handler' },
    ]);
  });

  it("serves the default locale's pages without their prefix (pages-router i18n)", () => {
    const { routes } = routesFromManifests({
      pages: { '/about': 'pages/about.js' },
      prerender: {
        routes: {
          '/en-US/about': { srcRoute: '/about' },
          '/fr/about': { srcRoute: '/about' },
          '/en-US': { srcRoute: '/' },
        },
      },
      i18n: { locales: ['en-US', 'fr'], defaultLocale: 'en-US' },
    });
    expect(routes).toEqual([
      { path: '/', router: 'pages', html: 'pages/en-US.html' },
      { path: '/about', router: 'pages', html: 'pages/en-US/about.html' },
      { path: '/fr/about', router: 'pages', html: 'pages/fr/about.html' },
    ]);
  });

  it('reads an empty build as no routes', () => {
    expect(routesFromManifests({})).toEqual({ routes: [], leftOut: [] });
  });
});
