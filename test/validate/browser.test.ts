import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHtml } from '../../src/validate/report/html.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { type ChromiumSession, launchChromium, saveScreenshot } from '../support/browser.js';
import {
  type TestServer as Site,
  type TestServer as StaticServer,
  startServer,
  startStaticServer,
} from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { page } from './helpers.js';

let site: Site;
let server: StaticServer;
let chromium: ChromiumSession;
let dir: string;

beforeAll(async () => {
  // A site with a bit of everything, validated live, so that every chart has something to draw.
  site = await startServer();
  const o = site.origin;
  const locs: string[] = [];
  for (let i = 0; i < 40; i++) {
    const path = `/p/${i}`;
    locs.push(path);
    site.route(
      path,
      i % 13 === 5
        ? { status: 404 }
        : i % 17 === 3
          ? { status: 301, headers: { location: '/p/0' } }
          : { body: page('') },
    );
  }
  site.route('/p/noindex', { body: page('<meta name="robots" content="noindex">') });
  locs.push('/p/noindex', '/p/0', '/img/a.png?utm_source=x');
  site.route('/img/a.png?utm_source=x', { headers: { 'content-type': 'image/png' }, body: 'x' });
  const lastmod = (i: number): string =>
    `20${String(18 + (i % 7)).padStart(2, '0')}-${String(1 + (i % 12)).padStart(2, '0')}-15`;
  const xml = (list: string[], from: number): string =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${list
      .map(
        (p, i) =>
          `<url><loc>${o}${p}</loc><lastmod>${lastmod(i + from)}</lastmod><priority>0.5</priority></url>`,
      )
      .join('')}</urlset>`;
  site.route('/s1.xml', { headers: { 'content-type': 'application/xml' }, body: xml(locs.slice(0, 25), 0) });
  site.route('/s2.xml', { headers: { 'content-type': 'application/xml' }, body: xml(locs.slice(25), 25) });
  site.route('/index.xml', {
    headers: { 'content-type': 'application/xml' },
    body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/s1.xml</loc></sitemap><sitemap><loc>${o}/s2.xml</loc></sitemap></sitemapindex>`,
  });
  site.route('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: 'User-agent: *\nDisallow: /img/\n',
  });
  const result = await validateSitemap(`${o}/index.xml`, { recursive: true, live: { retries: 0 } });
  dir = tempDir('sk-report-html');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'report.html'), formatHtml(result));
  // A sitemap with a long path, whose pages were almost all modified in one month.
  const months: Array<[string, number]> = [
    ['2023-01', 1],
    ['2023-04', 3],
    ['2023-07', 8],
    ['2023-10', 60],
    ['2024-03', 2000],
  ];
  let k = 0;
  const skewed = months
    .flatMap(([month, count]) =>
      Array.from(
        { length: count },
        () => `<url><loc>${o}/sitemaps/catalogue/2024/p${k++}</loc><lastmod>${month}-15</lastmod></url>`,
      ),
    )
    .join('');
  site.route('/sitemaps/catalogue/2024/products-00001.xml', {
    headers: { 'content-type': 'application/xml' },
    body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${skewed}</urlset>`,
  });
  const long = await validateSitemap(`${o}/sitemaps/catalogue/2024/products-00001.xml`, { robots: false });
  writeFileSync(join(dir, 'skewed.html'), formatHtml(long));
  server = await startStaticServer(dir);
  chromium = await launchChromium();
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await server?.close();
  await site?.close();
});

describe('the HTML report in headless Chromium', () => {
  it('renders its charts and tables without console errors or network requests', async () => {
    const watched = await chromium.newPage({ width: 1280, height: 900 });
    const { page: p } = watched;
    await p.goto(`${server.url}report.html`, { waitUntil: 'load' });
    expect(await p.title()).toBe(`Sitemap validation: ${site.origin}/index.xml`);

    const charts = await p.$$eval('figure', (figs) =>
      figs.map((f) => {
        const svg = f.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        return {
          id: f.id,
          marks: svg === null ? 0 : svg.querySelectorAll('rect, circle').length,
          width: box?.width ?? 0,
          height: box?.height ?? 0,
        };
      }),
    );
    expect(charts.map((c) => c.id)).toEqual([
      'chart-rules',
      'chart-severity',
      'chart-status',
      'chart-sitemaps',
      'chart-lastmod',
    ]);
    for (const c of charts) {
      expect(c.marks, c.id).toBeGreaterThan(1);
      expect(c.width, c.id).toBeGreaterThan(300);
      expect(c.height, c.id).toBeGreaterThan(20);
    }
    // One bar per status: 200, 301, 404, and the image under robots.txt's Disallow: /img/, which
    // the live checks no longer fetch (issue 11; it used to count as one more 200).
    expect(
      await p.$$eval('#chart-status .bar', (bars) => bars.map((b) => b.querySelector('title')?.textContent)),
    ).toEqual(['HTTP 200: 36', 'HTTP 301: 3', 'HTTP 404: 3', 'not fetched (robots.txt): 1']);
    const rows = await p.$$eval(
      '#findings tbody tr',
      (trs) => trs.filter((t) => t.getBoundingClientRect().height > 0).length,
    );
    expect(rows).toBeGreaterThan(8);
    expect(await p.$$eval('#rules tbody tr', (trs) => trs.length)).toBeGreaterThan(4);
    expect(await p.$$eval('#sitemaps tbody tr', (trs) => trs.map((t) => t.children[0]!.textContent))).toEqual(
      [`${site.origin}/index.xml`, `${site.origin}/s1.xml`, `${site.origin}/s2.xml`],
    );

    // The filters work: text, then severity.
    await p.fill('#q', 'live-redirect');
    expect(await p.textContent('#shown')).toBe('3');
    await p.fill('#q', '');
    await p.uncheck('input[value=error]');
    const errorsShown = await p.$$eval(
      '#findings tbody tr[data-severity=error]',
      (trs) => trs.filter((t) => t.getBoundingClientRect().height > 0).length,
    );
    expect(errorsShown).toBe(0);
    await p.check('input[value=error]');

    await saveScreenshot(p, 'validate-report');
    expect(watched.problems()).toEqual([]);
    expect(watched.log.externalRequests).toEqual([]);
    await watched.context.close();
  });
});

describe('the HTML report at 1280 px (issue 11)', () => {
  it('no chart card scrolls sideways, and no bar label is cut at the left edge', async () => {
    for (const name of ['report.html', 'skewed.html']) {
      const watched = await chromium.newPage({ width: 1280, height: 900 });
      const { page: p } = watched;
      await p.goto(`${server.url}${name}`, { waitUntil: 'load' });
      const figures = await p.$$eval('figure', (figs) =>
        figs.map((f) => ({ id: f.id, scroll: f.scrollWidth, client: f.clientWidth })),
      );
      expect(figures.length, name).toBe(5);
      for (const f of figures) expect(f.scroll, `${name} ${f.id}`).toBeLessThanOrEqual(f.client);
      // Every label of a bar chart starts inside its drawing.
      const starts = await p.$$eval('.bar text:not(.value)', (texts) =>
        texts.map((t) => ({
          text: t.textContent,
          x: (t as unknown as { getBBox(): { x: number } }).getBBox().x,
        })),
      );
      expect(starts.length, name).toBeGreaterThan(0);
      for (const l of starts) expect(l.x, `${name} ${l.text}`).toBeGreaterThanOrEqual(0);
      await watched.context.close();
    }
  });

  it('labels sitemaps by their path: the start and the file name, shortened in the middle', async () => {
    const watched = await chromium.newPage({ width: 1280, height: 900 });
    const { page: p } = watched;
    await p.goto(`${server.url}report.html`, { waitUntil: 'load' });
    const labels = (): Promise<Array<string | null>> =>
      p.$$eval('#chart-sitemaps .bar text:not(.value)', (texts) => texts.map((t) => t.textContent));
    expect(await labels()).toEqual(['/s1.xml', '/s2.xml', '/index.xml']);
    await p.goto(`${server.url}skewed.html`, { waitUntil: 'load' });
    expect(await labels()).toEqual(['/sitemaps/…/products-00001.xml']);
    await watched.context.close();
  });

  it('draws lastmod columns whose heights follow their counts, even when one month holds most URLs', async () => {
    const watched = await chromium.newPage({ width: 1280, height: 900 });
    const { page: p } = watched;
    await p.goto(`${server.url}skewed.html`, { waitUntil: 'load' });
    const cols = await p.$$eval('#chart-lastmod .col', (gs) =>
      gs.flatMap((g) => {
        const title = g.querySelector('title')?.textContent ?? '';
        const count = Number(title.slice(title.indexOf(': ') + 2).replace(/,/g, ''));
        const h = g.querySelector('rect')!.getBoundingClientRect().height;
        return count > 0 ? [{ title, count, h }] : [];
      }),
    );
    expect(cols.map((c) => c.count)).toEqual([1, 3, 8, 60, 2000]);
    // Strictly taller for every larger count, and the smallest still visible.
    const byCount = [...cols].sort((a, b) => a.count - b.count);
    for (let i = 1; i < byCount.length; i++)
      expect(byCount[i]!.h, byCount[i]!.title).toBeGreaterThan(byCount[i - 1]!.h + 1);
    expect(byCount[0]!.h).toBeGreaterThanOrEqual(8);
    expect(await p.getAttribute('#chart-lastmod svg', 'aria-label')).toMatch(/logarithmic scale/);
    await saveScreenshot(p, 'validate-report-skewed');
    expect(watched.problems()).toEqual([]);
    await watched.context.close();
  });
});
