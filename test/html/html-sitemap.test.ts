import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SitemapEntry } from '../../src/core/entry.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import {
  HtmlSitemapBuilder,
  type HtmlSitemapFile,
  type HtmlSitemapOptions,
} from '../../src/html/html-sitemap.js';
import { escapeHtml, readableUrl } from '../../src/html/render.js';
import { mapLinks, type ParsedPage, parsePage, readPage, siteLinks, validateHtml } from './helpers.js';

const BASE = 'https://example.com/';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitemapkit-html-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function build(
  entries: Iterable<SitemapEntry>,
  options: Partial<HtmlSitemapOptions> = {},
): Promise<HtmlSitemapFile[]> {
  const builder = new HtmlSitemapBuilder({ dir, baseUrl: BASE, ...options });
  for (const entry of entries) await builder.add(entry);
  return builder.finish();
}

function urls(n: number, section?: string): SitemapEntry[] {
  return Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}${section ?? 'page'}/${i + 1}`,
    ...(section === undefined ? {} : { section }),
  }));
}

async function pages(files: readonly HtmlSitemapFile[]): Promise<Map<string, ParsedPage>> {
  const out = new Map<string, ParsedPage>();
  for (const f of files) out.set(f.path, await readPage(dir, f.path));
  return out;
}

/**
 * Follows every site-map link from sitemap.html and returns the site links in the order a reader
 * meets them walking each section's pages, plus the files reached.
 */
function crawl(parsed: Map<string, ParsedPage>): { reached: Set<string>; links: string[] } {
  const reached = new Set<string>(['sitemap.html']);
  const queue = ['sitemap.html'];
  while (queue.length > 0) {
    const page = parsed.get(queue.shift()!);
    if (page === undefined) continue;
    for (const a of mapLinks(page)) {
      const target = a.href.split('#')[0]!;
      if (target === '' || reached.has(target)) continue;
      reached.add(target);
      queue.push(target);
    }
  }
  const links: string[] = [];
  for (const page of parsed.values()) for (const a of siteLinks(page)) links.push(a.href);
  return { reached, links };
}

describe('HtmlSitemapBuilder: files and pagination', () => {
  it('puts up to one page of links without sections into sitemap.html itself', async () => {
    const files = await build(urls(100));
    expect(files).toEqual([{ path: 'sitemap.html', url: `${BASE}sitemap.html`, links: 100 }]);
    expect(await readdir(dir)).toEqual(['sitemap.html']);
    const page = await readPage(dir, 'sitemap.html');
    expect(siteLinks(page).map((a) => a.href)).toEqual(urls(100).map((e) => e.loc));
    expect(page.h1).toBe('example.com site map');
  });

  it('splits at 100 links: the 101st link opens page 2, pages link to each other', async () => {
    const files = await build(urls(101));
    expect(files.map((f) => [f.path, f.links])).toEqual([
      ['sitemap-00001.html', 100],
      ['sitemap-00002.html', 1],
      ['sitemap.html', 2],
    ]);
    const p1 = await readPage(dir, 'sitemap-00001.html');
    const p2 = await readPage(dir, 'sitemap-00002.html');
    expect(siteLinks(p1)).toHaveLength(100);
    expect(siteLinks(p2).map((a) => a.href)).toEqual([`${BASE}page/101`]);
    expect(p2.start).toBe(101);
    expect(p1.anchors.filter((a) => a.rel !== undefined).map((a) => [a.rel, a.href])).toEqual([
      ['next', 'sitemap-00002.html'],
    ]);
    expect(p2.anchors.filter((a) => a.rel !== undefined).map((a) => [a.rel, a.href])).toEqual([
      ['prev', 'sitemap-00001.html'],
    ]);
    const entry = await readPage(dir, 'sitemap.html');
    expect(mapLinks(entry).map((a) => [a.href, a.text])).toEqual([
      ['sitemap-00001.html', 'Page 1'],
      ['sitemap-00002.html', 'Page 2'],
    ]);
  });

  it('exactly 200 links make two full pages and the last one has no next link', async () => {
    const files = await build(urls(200));
    expect(files.map((f) => [f.path, f.links])).toEqual([
      ['sitemap-00001.html', 100],
      ['sitemap-00002.html', 100],
      ['sitemap.html', 2],
    ]);
    const p2 = await readPage(dir, 'sitemap-00002.html');
    expect(p2.anchors.filter((a) => a.rel === 'next')).toEqual([]);
  });

  it('writes a full page as soon as the next link arrives (memory holds one page per section)', async () => {
    // The page is handed to `write` inside the add() that starts the next page, long before
    // finish(): no polling, so the verdict does not depend on how fast the disk answers.
    const written = new Map<string, string>();
    const builder = new HtmlSitemapBuilder({
      baseUrl: BASE,
      linksPerPage: 10,
      write: async (path, html) => {
        written.set(path, html);
      },
    });
    for (const e of urls(10)) await builder.add(e);
    for (const e of urls(10, 'blog')) await builder.add(e);
    expect([...written.keys()]).toEqual([]);
    await builder.add({ loc: `${BASE}page/11` });
    expect([...written.keys()]).toEqual(['sitemap-00001.html']);
    await builder.add({ loc: `${BASE}blog/11`, section: 'blog' });
    expect([...written.keys()]).toEqual(['sitemap-00001.html', 'sitemap-blog-00001.html']);
    expect(siteLinks(parsePage(written.get('sitemap-blog-00001.html') ?? ''))).toHaveLength(10);
    await builder.finish();
  });

  it('writes a full page into the folder before finish() (add() does not wait for the disk)', async () => {
    const builder = new HtmlSitemapBuilder({ dir, baseUrl: BASE, linksPerPage: 10 });
    for (const e of urls(11)) await builder.add(e);
    // readdir can list the file between its creation and its bytes: wait for the whole page.
    await vi.waitFor(
      async () => expect(siteLinks(await readPage(dir, 'sitemap-00001.html'))).toHaveLength(10),
      {
        timeout: 30_000,
        interval: 20,
      },
    );
    expect(await readdir(dir)).toEqual(['sitemap-00001.html']);
    await builder.finish();
  });

  it('gives each section its own pages and lists the sections on sitemap.html', async () => {
    const entries = [...urls(3), ...urls(150, 'products'), ...urls(2, 'blog')];
    const files = await build(entries);
    expect(files.map((f) => f.path).sort()).toEqual([
      'sitemap-00001.html',
      'sitemap-blog-00001.html',
      'sitemap-products-00001.html',
      'sitemap-products-00002.html',
      'sitemap.html',
    ]);
    expect(files.at(-1)?.path).toBe('sitemap.html');
    const entry = await readPage(dir, 'sitemap.html');
    // Entries without a section first, then sections by name.
    expect(mapLinks(entry).map((a) => a.href)).toEqual([
      'sitemap-00001.html',
      'sitemap-blog-00001.html',
      'sitemap-products-00001.html',
      'sitemap-products-00002.html',
    ]);
    const html = await readFile(join(dir, 'sitemap.html'), 'utf8');
    expect(html).toContain('<h2 id="section-products">Products</h2>');
    expect(html).toContain('150 links on 2 pages.');
    const p = await readPage(dir, 'sitemap-products-00002.html');
    expect(p.anchors.find((a) => a.text === 'Products')?.href).toBe('sitemap.html#section-products');
    expect(siteLinks(p).map((a) => a.href)).toEqual(
      urls(150, 'products')
        .slice(100)
        .map((e) => e.loc),
    );
  });

  it('never shows two groups under one heading: a section called pages and entries without one', async () => {
    const headings = async (): Promise<string[]> => {
      const html = await readFile(join(dir, 'sitemap.html'), 'utf8');
      return [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]!);
    };
    // Entries without a section both before and after the section's: their pages are written
    // before the section is seen, so no page may name the group.
    await build([...urls(150), ...urls(3, 'pages'), ...urls(2, 'pagesx')]);
    expect(await headings()).toEqual(['Other pages', 'Pages', 'Pagesx']);
    for (const name of ['sitemap-00001.html', 'sitemap-00002.html']) {
      const page = await readPage(dir, name);
      expect(page.title).toBe(`Page ${name.endsWith('1.html') ? 1 : 2} \u2013 example.com site map`);
      expect(page.anchors.filter((a) => a.list === '' && a.text.includes('ages')).map((a) => a.text)).toEqual(
        [],
      );
    }
    const section = await readPage(dir, 'sitemap-pages-00001.html');
    expect(section.anchors.find((a) => a.text === 'Pages')?.href).toBe('sitemap.html#section-pages');
    // Without a section called pages, the rest keeps its name.
    await rm(dir, { recursive: true, force: true });
    dir = await mkdtemp(join(tmpdir(), 'sitemapkit-html-'));
    await build([...urls(3), ...urls(2, 'blog')]);
    expect(await headings()).toEqual(['Pages', 'Blog']);
  });

  it('adds lists of pages when a section has more pages than fit on one page', async () => {
    // 3 links a page: 40 links → 14 pages → 5 lists → 2 lists of lists on sitemap.html.
    const files = await build(urls(40, 'big'), { linksPerPage: 3 });
    const names = files.map((f) => f.path);
    expect(names.filter((n) => /^sitemap-big-\d{5}\.html$/.test(n))).toHaveLength(14);
    expect(names.filter((n) => n.startsWith('sitemap-big.pages-'))).toHaveLength(5);
    expect(names.filter((n) => n.startsWith('sitemap-big.pages2-'))).toHaveLength(2);
    const parsed = await pages(files);
    for (const [name, page] of parsed) {
      if (name === 'sitemap.html') continue;
      const listed = siteLinks(page).length + page.anchors.filter((a) => a.list === 'pages').length;
      expect(listed, name).toBeLessThanOrEqual(3);
    }
    expect(mapLinks(parsed.get('sitemap.html')!).map((a) => a.text)).toEqual(['Pages 1–9', 'Pages 10–14']);
    expect(parsed.get('sitemap-big-00002.html')!.h1).toBe('Big: page 2');
    const { reached, links } = crawl(parsed);
    expect([...reached].sort()).toEqual([...names].sort());
    expect(links.sort()).toEqual(
      urls(40, 'big')
        .map((e) => e.loc)
        .sort(),
    );
  });

  it('keeps every link exactly once, in order, on the right page, for interleaved sections', async () => {
    const section = fc.constantFrom(undefined, 'a', 'b', 'news', 'z-9');
    await fc.assert(
      fc.asyncProperty(
        fc.array(section, { maxLength: 120 }),
        fc.integer({ min: 2, max: 7 }),
        async (sections, per) => {
          await rm(dir, { recursive: true, force: true });
          dir = await mkdtemp(join(tmpdir(), 'sitemapkit-html-'));
          const entries: SitemapEntry[] = sections.map((s, i) => ({
            loc: `${BASE}item/${i}`,
            ...(s === undefined ? {} : { section: s }),
          }));
          const files = await build(entries, { linksPerPage: per });
          expect((await readdir(dir)).sort()).toEqual(files.map((f) => f.path).sort());
          expect(files.at(-1)?.path).toBe('sitemap.html');
          const parsed = await pages(files);
          const { reached, links } = crawl(parsed);
          expect([...reached].sort()).toEqual(files.map((f) => f.path).sort());
          expect(links.sort()).toEqual(entries.map((e) => e.loc).sort());
          const bySection = new Map<string, string[]>();
          for (const e of entries) {
            const key = e.section ?? '';
            bySection.set(key, [...(bySection.get(key) ?? []), e.loc]);
          }
          const single = bySection.size === 1 && bySection.has('') && entries.length <= per;
          for (const [key, locs] of bySection) {
            for (let p = 0; p * per < locs.length; p++) {
              const name = single
                ? 'sitemap.html'
                : `sitemap-${key === '' ? '' : `${key}-`}${String(p + 1).padStart(5, '0')}.html`;
              const page = parsed.get(name);
              expect(page, name).toBeDefined();
              expect(siteLinks(page!).map((a) => a.href)).toEqual(locs.slice(p * per, (p + 1) * per));
              if (single) continue;
              const next = page!.anchors.find((a) => a.rel === 'next')?.href;
              const hasNext = (p + 1) * per < locs.length;
              expect(next !== undefined, `${name} next`).toBe(hasNext);
            }
          }
          for (const f of files) {
            const listed = parsed
              .get(f.path)!
              .anchors.filter((a) => a.list === 'links' || a.list === 'pages').length;
            expect(listed, f.path).toBe(f.links);
            if (f.path !== 'sitemap.html') expect(f.links).toBeLessThanOrEqual(per);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('writes sitemap.html saying there is nothing yet when no entry came', async () => {
    const files = await build([]);
    expect(files).toEqual([{ path: 'sitemap.html', url: `${BASE}sitemap.html`, links: 0 }]);
    expect(await readFile(join(dir, 'sitemap.html'), 'utf8')).toContain('This site map has no pages yet.');
  });
});

describe('HtmlSitemapBuilder: link text and escaping', () => {
  it('uses the title as link text, else the decoded path, and shows lastmod as a date', async () => {
    await build([
      { loc: `${BASE}caf%C3%A9/cr%C3%A8me?x=%C3%A9t%C3%A9`, lastmod: '2024-05-06T07:08:09+02:00' },
      { loc: `${BASE}about`, title: 'About us', lastmod: '2024-05' },
      { loc: `${BASE}x`, title: '   ', lastmod: 'not a date' },
    ]);
    const page = await readPage(dir, 'sitemap.html');
    expect(siteLinks(page).map((a) => a.text)).toEqual(['/café/crème?x=été', 'About us', '/x']);
    expect(page.times).toEqual(['2024-05-06T07:08:09+02:00', '2024-05']);
  });

  it('escapes hostile titles and URLs so they stay text', async () => {
    const hostile = [
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(1)>',
      "it's & <b>bold</b> &amp; done",
      'nul\u0000 and bell\u0007 and \uFFFF',
      '</ol></main><iframe src="//evil">',
    ];
    const entries: SitemapEntry[] = hostile.map((title, i) => ({ loc: `${BASE}t/${i}`, title }));
    entries.push({ loc: `${BASE}q?a="><script>alert(2)</script>&b='x'` });
    entries.push({ loc: `${BASE}%3Cscript%3Ealert(3)%3C/script%3E` });
    await build(entries);
    const html = await readFile(join(dir, 'sitemap.html'), 'utf8');
    const page = parsePage(html);
    expect([...page.tags].filter((t) => ['script', 'img', 'iframe', 'b'].includes(t))).toEqual([]);
    const texts = siteLinks(page).map((a) => a.text);
    expect(texts.slice(0, 5)).toEqual([
      hostile[0],
      hostile[1],
      hostile[2],
      'nul\uFFFD and bell\uFFFD and \uFFFD',
      hostile[4],
    ]);
    // The decoded path is shown as text, never as markup.
    expect(texts[6]).toBe('/<script>alert(3)</script>');
    // Query quotes are percent-encoded in the URI; the apostrophe is escaped in the attribute.
    expect(siteLinks(page)[5]?.href).toBe(`${BASE}q?a=%22%3E%3Cscript%3Ealert(2)%3C/script%3E&b=%27x%27`);
    expect(html).not.toMatch(/\u0000|\u0007/);
  });

  it('refuses javascript: and relative URLs and file-name-unsafe sections, naming the record', async () => {
    const builder = new HtmlSitemapBuilder({ dir, baseUrl: BASE });
    for (const loc of ['javascript:alert(1)', '/relative', 'data:text/html,<script>x</script>']) {
      const error = await builder.add({ loc }).catch((e: unknown) => e);
      expect(isSitemapkitError(error, 'ERR_INVALID_ENTRY'), loc).toBe(true);
    }
    const error = await builder.add({ loc: `${BASE}a`, section: '../etc' }).catch((e: unknown) => e);
    expect(isSitemapkitError(error, 'ERR_INVALID_ENTRY')).toBe(true);
    expect((error as Error).message).toContain(`${BASE}a`);
  });

  it('keeps invisible and bidi characters encoded in readable URLs, shows other hosts in Unicode', () => {
    expect(readableUrl('https://example.com/a%E2%80%AEgpj.exe', 'example.com')).toBe('/a%E2%80%AEgpj.exe');
    expect(readableUrl('https://example.com/a%20b%0Ac', 'example.com')).toBe('/a b%0Ac');
    expect(readableUrl('https://example.com/latin1-%E9', 'example.com')).toBe('/latin1-%E9');
    expect(readableUrl('https://xn--bcher-kva.example/b%C3%BCcher', 'example.com')).toBe(
      'bücher.example/bücher',
    );
    expect(readableUrl('https://example.com:8443/x', 'example.com')).toBe('example.com:8443/x');
    expect(readableUrl('https://example.com/', 'example.com')).toBe('example.com/');
    expect(readableUrl('https://example.com/?lang=de', 'example.com')).toBe('/?lang=de');
    expect(escapeHtml('a&b<c>"d\'')).toBe('a&amp;b&lt;c&gt;&quot;d&#39;');
  });
});

describe('HtmlSitemapBuilder: options and failures', () => {
  it('rejects a baseUrl that is not an http(s) folder and a linksPerPage below 2', () => {
    for (const baseUrl of [
      'https://example.com/maps',
      'ftp://example.com/',
      'example.com/',
      'https://example.com/?a=1',
    ]) {
      expect(() => new HtmlSitemapBuilder({ dir, baseUrl }), baseUrl).toThrow(/baseUrl/);
    }
    for (const linksPerPage of [1, 0, 2.5, 50_001]) {
      expect(
        () => new HtmlSitemapBuilder({ dir, baseUrl: BASE, linksPerPage }),
        String(linksPerPage),
      ).toThrow(/linksPerPage/);
    }
  });

  it('uses siteName in headings and defaults it to the host', async () => {
    await build(urls(1), { siteName: 'Bäckerei & Söhne' });
    expect((await readPage(dir, 'sitemap.html')).h1).toBe('Bäckerei & Söhne site map');
    await rm(join(dir, 'sitemap.html'));
    const b = new HtmlSitemapBuilder({ dir, baseUrl: 'https://xn--bcker-gra.example:8080/maps/' });
    await b.add({ loc: 'https://xn--bcker-gra.example:8080/maps/a' });
    const files = await b.finish();
    expect(files[0]?.url).toBe('https://xn--bcker-gra.example:8080/maps/sitemap.html');
    const page = await readPage(dir, 'sitemap.html');
    expect(page.h1).toBe('bäcker.example:8080 site map');
    expect(siteLinks(page)[0]?.text).toBe('/maps/a');
  });

  it('makes add() reject once a page could not be written, without waiting for finish()', async () => {
    const builder = new HtmlSitemapBuilder({ dir: join(dir, 'gone'), baseUrl: BASE, linksPerPage: 2 });
    let error: unknown;
    for (let i = 0; i < 100 && error === undefined; i++) {
      error = await builder.add({ loc: `${BASE}${i}` }).then(
        () => undefined,
        (e: unknown) => e,
      );
    }
    expect(isSitemapkitError(error, 'ERR_OUTPUT')).toBe(true);
  });

  it('throws ERR_OUTPUT naming the file when the folder is missing, and refuses use after finish', async () => {
    const missing = join(dir, 'gone');
    const builder = new HtmlSitemapBuilder({ dir: missing, baseUrl: BASE, linksPerPage: 2 });
    await builder.add({ loc: `${BASE}1` });
    await builder.add({ loc: `${BASE}2` });
    await builder.add({ loc: `${BASE}3` });
    // The failed write of page 1 is reported by finish() (and by any add() after it failed).
    const error = await builder.finish().catch((e: unknown) => e);
    expect(isSitemapkitError(error, 'ERR_OUTPUT')).toBe(true);
    expect((error as Error).message).toContain(join(missing, 'sitemap-00001.html'));
    await expect(builder.add({ loc: `${BASE}4` })).rejects.toThrow(/after finish/);
    await expect(access(missing)).rejects.toThrow();
  });
});

describe('HtmlSitemapBuilder: valid HTML5', () => {
  it('passes the W3C Nu HTML Checker on every kind of page', async () => {
    const entries: SitemapEntry[] = [
      ...urls(5),
      ...urls(7, 'shop'),
      { loc: `${BASE}h`, title: '<script>alert(1)</script> & "quotes" \u0000', section: 'shop' },
      { loc: `${BASE}rtl`, title: 'مرحبا \u202Eevil', lastmod: '2024-01-02T03:04Z', section: 'shop' },
      { loc: `${BASE}y`, lastmod: '2024', section: 'shop' },
      ...urls(25, 'deep'),
    ];
    const files = await build(entries, { linksPerPage: 3 });
    expect(files.some((f) => f.path.includes('.pages'))).toBe(true);
    const single = await mkdtemp(join(tmpdir(), 'sitemapkit-html-'));
    try {
      const b = new HtmlSitemapBuilder({ dir: single, baseUrl: BASE });
      await b.add({ loc: `${BASE}only`, title: 'Only & one' });
      await b.finish();
      const messages = await validateHtml([
        ...files.map((f) => join(dir, f.path)),
        join(single, 'sitemap.html'),
      ]);
      expect(messages).toEqual([]);
    } finally {
      await rm(single, { recursive: true, force: true });
    }
  });
});
