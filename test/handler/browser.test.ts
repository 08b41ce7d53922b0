/**
 * The browser view that needs no XSLT, as people see it: Debian's Chromium (headless, through
 * playwright-core) opens the handler's `sitemap.html` and a child's view, served by an Express app
 * on 127.0.0.1. No console errors, nothing loaded from elsewhere; a screenshot goes to
 * test/.artifacts/ (docs/img/served-view.png is one of them).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSitemapHandler, toNodeListener } from '../../src/handler/node.js';
import { type ChromiumSession, launchChromium, saveScreenshot } from '../support/browser.js';
import { get } from './fixtures.js';

let server: Server;
let origin: string;
let chromium: ChromiumSession;

beforeAll(async () => {
  const handler = createNodeSitemapHandler({
    baseUrl: 'http://127.0.0.1/',
    maxUrlsPerFile: 4,
    siteName: 'Example shop',
    source: () =>
      Array.from({ length: 6 }, (_, i) => ({
        loc: `http://127.0.0.1/shop/${i === 1 ? 'café?colour=red&size=m' : `item-${i}`}`,
        lastmod: `2024-06-0${i + 1}`,
        changefreq: 'weekly' as const,
        priority: 0.5,
      })),
  });
  const app = express();
  app.use(toNodeListener(handler));
  server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  server?.close();
});

describe('the served browser view', () => {
  it('shows the index and a child as pages, with no console errors, and links between them', async () => {
    const w = await chromium.newPage({ width: 1100, height: 600 });
    await w.page.goto(`${origin}/sitemap.html`);
    expect(await w.page.title()).toBe('Sitemap index sitemap.xml · Example shop');
    expect(await w.page.locator('tbody tr').count()).toBe(2);
    await w.page.getByRole('link', { name: 'sitemap-00001', exact: true }).click();
    await w.page.waitForURL(/sitemap-00001\.html$/);
    expect(await w.page.locator('tbody tr').count()).toBe(4);
    const cafe = w.page.locator('tbody tr').nth(1).locator('a');
    expect(await cafe.getAttribute('href')).toBe('http://127.0.0.1/shop/caf%C3%A9?colour=red&size=m');
    await saveScreenshot(w.page, 'served-view');
    expect(w.problems()).toEqual([]);
    await w.context.close();
  });

  it('sends a browser the same XML as a crawler: no content negotiation on the .xml URL', async () => {
    const crawler = await get(origin, '/sitemap-00002.xml', { accept: '*/*' });
    const browser = await get(origin, '/sitemap-00002.xml', {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(browser.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(browser.text).toBe(crawler.text);
  });
});
