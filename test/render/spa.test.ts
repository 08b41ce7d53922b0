/**
 * Crawling the bundled single-page application (test/fixtures/spa) for real: Debian's Chromium,
 * the fixture served on loopback, the crawl's own report read back. A plain crawl sees the shell
 * only; `render: true` finds every page; `render: 'auto'` renders the shell pages and a sample of
 * the static ones; the report names the JS-only links and the raw/rendered differences.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { type SpaServer, startSpaServer } from '../support/spa-server.mjs';
import { tempDir } from '../support/tmp.js';
import { chromiumChildren } from './processes.js';

interface Row {
  url: string;
  verdict: string;
  reason: string | null;
  target: string | null;
  title: string | null;
  extra?: unknown;
  rendered: string | null;
  jsOnlyLinks: string[] | null;
  renderDifferences: string | null;
}

function rows(dir: string): Map<string, Row> {
  const lines = readFileSync(join(dir, 'urls.jsonl'), 'utf8').trim().split('\n');
  return new Map(lines.map((l) => JSON.parse(l) as Row).map((r) => [new URL(r.url).pathname, r]));
}

/** Every page of the application, and the static pages it links to. */
const SHELL_PAGES = [
  '/',
  '/about',
  '/products',
  '/products/1',
  '/products/2',
  '/products/3',
  '/private',
  '/sale',
  '/legacy',
  '/contact',
  '/blog',
];
const DOCS = ['/docs/1.html', '/docs/2.html', '/docs/3.html', '/docs/4.html', '/docs/5.html', '/docs/6.html'];

let site: SpaServer;

beforeAll(async () => {
  site = await startSpaServer();
});
afterAll(async () => {
  await site.close();
});

async function crawlSpa(
  name: string,
  render: boolean | 'auto',
): Promise<{ rows: Map<string, Row>; report: string; sitemap: string }> {
  const dir = tempDir(`render-${name}`);
  const report = join(dir, 'report');
  await crawl({ start: `${site.origin}/`, outDir: join(dir, 'out'), report, render, concurrency: 4 });
  return { rows: rows(report), report, sitemap: readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8') };
}

describe('a plain crawl of the application', () => {
  it('finds the home page only: the shell has no links', async () => {
    const { rows: r } = await crawlSpa('plain', false);
    expect([...r.keys()]).toEqual(['/']);
    expect(r.get('/')!.rendered).toBeNull();
  });
});

describe('crawl render: true', () => {
  let r: Map<string, Row>;
  let report: string;
  let sitemap: string;
  let before: number;

  beforeAll(async () => {
    before = site.paths.length;
    ({ rows: r, report, sitemap } = await crawlSpa('render', true));
  });

  it('finds every page: routed links, links from the API, the lazy section, pushState navigations', () => {
    expect([...r.keys()].sort()).toEqual([...SHELL_PAGES, ...DOCS].sort());
    for (const path of [...SHELL_PAGES, ...DOCS]) expect(r.get(path)!.rendered, path).toBe('yes');
    // /contact is reached only by the router's pushState on /legacy.
    expect(r.get('/legacy')!.jsOnlyLinks).toContain(`${site.origin}/contact`);
  });

  it('reads the rendered DOM: titles, the noindex and the canonical added by script, images', () => {
    expect(r.get('/about')!.title).toBe('About | Shop');
    expect(r.get('/private')!.verdict).toBe('noindex');
    expect(r.get('/sale')!.verdict).toBe('canonicalised');
    expect(r.get('/sale')!.target).toBe(`${site.origin}/products`);
    expect(r.get('/products/2')!.verdict).toBe('listed');
    expect(sitemap).toContain(`<image:loc>${site.origin}/img/2.png</image:loc>`);
    expect(sitemap).not.toContain(`${site.origin}/private<`);
  });

  it('names the JS-only links and the raw/rendered differences in urls.jsonl, urls.csv and report.html', () => {
    expect(r.get('/')!.jsOnlyLinks).toEqual(
      expect.arrayContaining([
        `${site.origin}/products`,
        `${site.origin}/private`,
        `${site.origin}/docs/1.html`,
        `${site.origin}/blog`,
      ]),
    );
    expect(r.get('/products')!.jsOnlyLinks).toEqual(
      expect.arrayContaining([1, 2, 3].map((i) => `${site.origin}/products/${i}`)),
    );
    // Static pages gain nothing.
    expect(r.get('/docs/2.html')!.jsOnlyLinks).toEqual([]);
    expect(r.get('/docs/2.html')!.renderDifferences).toBeNull();
    expect(r.get('/private')!.renderDifferences).toBe('meta robots: index, follow → noindex, follow');
    expect(r.get('/sale')!.renderDifferences).toBe(`canonical: (none) → ${site.origin}/products`);
    const csv = parse(readFileSync(join(report, 'urls.csv'), 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    const home = csv.find((c) => c['url'] === `${site.origin}/`)!;
    expect(home['rendered']).toBe('yes');
    expect(home['js_only_links']!.split(' ')).toContain(`${site.origin}/blog`);
    const sale = csv.find((c) => c['url'] === `${site.origin}/sale`)!;
    expect(sale['render_differences']).toBe(`canonical: (none) → ${site.origin}/products`);
    const html = readFileSync(join(report, 'report.html'), 'utf8');
    expect(html).toContain('<h2 id="rendering">Rendering</h2>');
    expect(html).toContain('meta robots: index, follow → noindex, follow');
    expect(html).toContain(`<a href="${site.origin}/blog">`);
  });

  it('blocks third-party requests, fonts and images, and API calls robots.txt refuses', () => {
    const asked = site.paths.slice(before);
    expect(asked).toContain('/api/products.json');
    expect(asked).toContain('/assets/lazy.js');
    expect(asked.filter((p) => p.startsWith('/api/private/'))).toEqual([]);
    expect(asked.filter((p) => p.startsWith('/fonts/') || p.startsWith('/img/'))).toEqual([]);
    // Each page's HTML is fetched once: the browser renders the HTML the crawl read.
    expect(asked.filter((p) => p === '/about')).toEqual(['/about']);
  });

  it('leaves no Chromium process behind', () => {
    expect(chromiumChildren(process.pid)).toEqual([]);
  });
});

describe('crawl render: "auto"', () => {
  it('renders the application shell pages, and only a sample of the static pages', async () => {
    const { rows: r } = await crawlSpa('auto', 'auto');
    expect([...r.keys()].sort()).toEqual([...SHELL_PAGES, ...DOCS].sort());
    for (const path of SHELL_PAGES) expect(r.get(path)!.rendered, path).toBe('yes');
    const sampled = DOCS.filter((p) => r.get(p)!.rendered === 'yes');
    // Three pages of /docs/* gained nothing from rendering: the template is not sampled any more.
    expect(sampled).toHaveLength(3);
    for (const p of DOCS.filter((d) => !sampled.includes(d))) expect(r.get(p)!.rendered).toBeNull();
    expect(r.get('/private')!.verdict).toBe('noindex');
  });
});
