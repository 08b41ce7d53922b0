import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { crawl } from '../../src/crawler/crawl.js';
import type { CrawlOptions } from '../../src/crawler/options.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
beforeAll(() => assertXmllint());

async function site(routes: Record<string, Route>): Promise<Site> {
  const s = await startServer(routes);
  sites.push(s);
  return s;
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<url><loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

function jsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function setup(extra: Partial<CrawlOptions> & { start: string }): CrawlOptions & { dir: string } {
  const dir = tempDir('sk-crawl');
  return {
    outDir: join(dir, 'out'),
    state: join(dir, 'state.db'),
    report: join(dir, 'report'),
    retryBaseMs: 1,
    ...extra,
    dir,
  };
}

const ROBOTS = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private/\n' };

describe('what goes into the sitemap', () => {
  it('lists only 200 HTML pages that are indexable and their own canonical; records why the rest are out', async () => {
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html(
        'Home',
        `<a href="/noindex-meta">1</a><a href="/noindex-header">2</a><a href="/googlebot-noindex">3</a>
         <a href="/canon-other">4</a><a href="/docs/canon-self">5</a><a href="/canon-bad">6</a>
         <a href="/nofollow-page">7</a><a rel="nofollow" href="/rel-nofollow">8</a><a href="/private/secret">9</a>
         <a href="/old">10</a><a href="/loop-a">11</a><a href="/missing">12</a><a href="/boom">13</a>
         <a href="/file.pdf">14</a><a href="/page?utm_source=news&amp;id=1#top">15</a><a href="/empty">16</a>
         <a href="https://other.example/">17</a><a href="mailto:x@y.z">18</a>`,
      ),
      '/noindex-meta': html(
        'NI',
        '<a href="/via-noindex">follow me</a>',
        '<meta name="robots" content="noindex, follow">',
      ),
      '/via-noindex': html('Via'),
      '/noindex-header': {
        headers: { 'content-type': 'text/html', 'x-robots-tag': 'noindex' },
        body: '<title>h</title>',
      },
      '/googlebot-noindex': html('G', '', '<meta name="googlebot" content="noindex">'),
      '/canon-other': html('C', '', '<link rel="canonical" href="/canon-target">'),
      '/canon-target': html('Target'),
      '/docs/canon-self': html('Self', '', '<base href="/docs/"><link rel="canonical" href="canon-self">'),
      '/canon-bad': html('Bad canonical', '', '<link rel="canonical" href="ftp://example.com/x">'),
      '/nofollow-page': html(
        'NF',
        '<a href="/only-from-nofollow">x</a>',
        '<meta name="robots" content="nofollow">',
      ),
      '/only-from-nofollow': html('never'),
      '/rel-nofollow': html('never'),
      '/private/secret': html('never'),
      '/old': { status: 301, headers: { location: '/new' } },
      '/new': html('New'),
      '/loop-a': { status: 302, headers: { location: '/loop-b' } },
      '/loop-b': { status: 302, headers: { location: '/loop-a' } },
      '/boom': { status: 500, body: 'no' },
      '/file.pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
      '/page?id=1': html('Page 1'),
      '/empty': { status: 204 },
    });
    const diagnostics: Diagnostic[] = [];
    const o = setup({
      start: `${s.origin}/`,
      retries: 1,
      sitemaps: { html: true },
      onDiagnostic: (d) => diagnostics.push(d),
    });
    const r = await crawl(o);
    const xml = readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8');
    const u = (p: string): string => `${s.origin}${p}`;
    expect(locs(xml).sort()).toEqual(
      [
        '/',
        '/via-noindex',
        '/canon-target',
        '/docs/canon-self',
        '/canon-bad',
        '/nofollow-page',
        '/new',
        '/page?id=1',
      ]
        .map(u)
        .sort(),
    );
    expect(r.complete).toBe(true);
    const byUrl = new Map(jsonl(r.report!.jsonl).map((x) => [x['url'] as string, x]));
    const verdict = (p: string): unknown => byUrl.get(u(p))?.['verdict'];
    expect(verdict('/noindex-meta')).toBe('noindex');
    expect(byUrl.get(u('/noindex-header'))?.['reason']).toBe('noindex in X-Robots-Tag');
    expect(byUrl.get(u('/googlebot-noindex'))?.['reason']).toBe('noindex in <meta name="googlebot">');
    expect(byUrl.get(u('/canon-other'))).toMatchObject({
      verdict: 'canonicalised',
      target: u('/canon-target'),
    });
    expect(verdict('/private/secret')).toBe('robots');
    expect(byUrl.get(u('/old'))).toMatchObject({ verdict: 'redirect', status: 301, target: u('/new') });
    expect(verdict('/loop-a')).toBe('redirect');
    expect(verdict('/loop-b')).toBe('redirect');
    expect(byUrl.get(u('/missing'))).toMatchObject({ verdict: 'broken', status: 404, via: u('/') });
    expect(byUrl.get(u('/boom'))).toMatchObject({ verdict: 'error', status: 500, attempts: 2 });
    expect(byUrl.get(u('/file.pdf'))).toMatchObject({
      verdict: 'non-html',
      reason: 'Content-Type application/pdf',
    });
    expect(verdict('/empty')).toBe('not-ok');
    // Never fetched: nofollow (meta and rel), robots-disallowed, other hosts, tracking variants.
    for (const p of ['/only-from-nofollow', '/rel-nofollow', '/private/secret']) expect(s.hits(p)).toBe(0);
    expect(s.requests.some((q) => q.path.includes('utm_source'))).toBe(false);
    expect(s.hits('/boom')).toBe(2);
    for (const p of ['/', '/new', '/page?id=1', '/loop-a', '/loop-b']) expect(s.hits(p)).toBe(1);
    expect(r.stats.externalLinks).toBe(1);
    expect(diagnostics.some((d) => d.code === 'canonical-ignored' && d.url === u('/canon-bad'))).toBe(true);
    // Every request says who we are.
    expect(s.requests.every((q) => /^sitemapkit\//.test(q.headers['user-agent'] ?? ''))).toBe(true);
    // The report names the page that links to the broken URL.
    const report = readFileSync(r.report!.html, 'utf8');
    expect(report).toContain('Broken links');
    const brokenTable = report.slice(
      report.indexOf('<h2>Broken links</h2>'),
      report.indexOf('<h2>Redirects</h2>'),
    );
    expect(brokenTable).toContain(`<td><a href="${u('/missing')}" rel="nofollow noreferrer">`);
    expect(brokenTable).toContain(`<li><a href="${u('/')}" rel="nofollow noreferrer">`);
    expect(readFileSync(r.report!.csv, 'utf8').split('\r\n')[0]).toBe(
      'url,depth,status,verdict,reason,target,content_type,title,lastmod,source,via,inlinks,bytes,ms,attempts,canonical,description_length,rendered,js_only_links,render_differences',
    );
    // The HTML site map uses the titles as link text.
    expect(readFileSync(join(o.outDir, 'sitemap.html'), 'utf8')).toContain('">Bad canonical</a>');
  });

  it('lastmod comes from the page or an old Last-Modified, never from the crawl', async () => {
    const date = new Date().toUTCString();
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html('Home', '<a href="/a">a</a><a href="/b">b</a><a href="/c">c</a>'),
      '/a': html(
        'A',
        '',
        '<script type="application/ld+json">{"@type":"Article","dateModified":"2024-02-03T04:05:06Z"}</script>',
      ),
      '/b': {
        headers: { 'content-type': 'text/html', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', date },
        body: '<title>B</title>',
      },
      '/c': {
        headers: { 'content-type': 'text/html', 'last-modified': date, date },
        body: '<title>C</title>',
      },
    });
    const o = setup({ start: `${s.origin}/` });
    await crawl(o);
    const xml = readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8');
    expect(xml).toContain(`<loc>${s.origin}/a</loc><lastmod>2024-02-03T04:05:06Z</lastmod>`);
    expect(xml).toContain(`<loc>${s.origin}/b</loc><lastmod>2024-01-01T00:00:00Z</lastmod>`);
    expect(xml).toContain(`<url><loc>${s.origin}/c</loc></url>`);
    expect(xml).toContain(`<url><loc>${s.origin}/</loc></url>`);
  });
});

describe('normalisation and the parameter policy', () => {
  const routes = {
    '/robots.txt': ROBOTS,
    '/': html(
      'Home',
      `<a href="/p?b=2&amp;a=1">1</a><a href="/p?b=2&amp;a=1&amp;utm_medium=x">2</a><a href="/p?b=2&amp;a=1&amp;sort=new">3</a>
       <a href="/~user/#frag">5</a><a href="/p;jsessionid=123?b=2&amp;a=1">6</a>`,
    ),
    '/p': html('P'),
    '/~user/': html('User'),
  };

  async function run(extra: Omit<Partial<CrawlOptions>, 'start'>): Promise<{ s: Site; urls: string[] }> {
    const t = await site(routes);
    const o = setup({ start: `${t.origin}/`, ...extra });
    await crawl(o);
    return {
      s: t,
      urls: locs(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8')).map((x) => x.slice(t.origin.length)),
    };
  }

  it('strips tracking and session parameters, keeps the others, and fetches each page once', async () => {
    const { s, urls } = await run({});
    expect(urls.sort()).toEqual(['/', '/p?b=2&a=1', '/p?b=2&a=1&sort=new', '/~user/'].sort());
    expect(s.hits('/p?b=2&a=1')).toBe(1);
  });

  it('a drop-list removes parameters; a keep-list keeps only its own', async () => {
    const dropped = await run({ dropParams: ['sort'] });
    expect(dropped.urls.sort()).toEqual(['/', '/p?b=2&a=1', '/~user/'].sort());
    const kept = await run({ keepParams: ['a'] });
    expect(kept.urls.sort()).toEqual(['/', '/p?a=1', '/~user/'].sort());
  });

  it('case, default ports, dot segments, escapes and fragments name one URL', async () => {
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html(
        'Home',
        '<a href="/%7Euser/./x/../">a</a><a href="/~user/#frag">b</a><a href="/%7euser/">c</a>',
      ),
      '/~user/': html('User'),
    });
    const o = setup({ start: `${s.origin.replace('http://', 'HTTP://')}/` });
    await crawl(o);
    expect(locs(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8'))).toEqual([
      `${s.origin}/`,
      `${s.origin}/~user/`,
    ]);
    expect(s.hits('/~user/')).toBe(1);
  });
});

describe('crawler traps and limits', () => {
  it('an endless calendar stops at the year guard and a pager at the per-pattern cap', async () => {
    const calendar = (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
    ): void => {
      const m = /^\/cal\/(\d{4})\/(\d{2})\/$/.exec(req.url ?? '')!;
      const y = Number(m[1]);
      const mo = Number(m[2]);
      const next = mo === 12 ? `${y + 1}/01` : `${y}/${String(mo + 1).padStart(2, '0')}`;
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>${y}-${mo}</title><a href="/cal/${next}/">next</a>`);
    };
    const routes: Record<string, Route> = {
      '/robots.txt': ROBOTS,
      '/': html(
        'Home',
        '<a href="/cal/2026/01/">cal</a><a href="/list?page=1">list</a><a href="/loop/">loop</a>',
      ),
      '/list': (req, res) => {
        const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page'));
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<title>p${n}</title><a href="/list?page=${n + 1}">next</a>`);
      },
    };
    for (let y = 2026; y <= 2032; y++)
      for (let m = 1; m <= 12; m++) routes[`/cal/${y}/${String(m).padStart(2, '0')}/`] = calendar;
    const s = await site(routes);
    // Relative links that add a folder each time: /loop/, /loop/a/, /loop/a/a/, …
    const loop = (
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
    ): void => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>${req.url}</title><a href="a/">deeper</a>`);
    };
    let p = '/loop/';
    for (let i = 0; i < 10; i++, p += 'a/') routes[p] = loop;
    const diagnostics: Diagnostic[] = [];
    const o = setup({ start: `${s.origin}/`, maxPerPattern: 20, onDiagnostic: (d) => diagnostics.push(d) });
    const r = await crawl(o);
    const rows = jsonl(r.report!.jsonl);
    const fetchedCal = s.requests.filter((q) => q.path.startsWith('/cal/')).length;
    // 2026-01 to (current year + 3)-12 are crawled; the next month is a trap.
    const year = new Date().getUTCFullYear();
    expect(fetchedCal).toBe((year + 3 - 2026 + 1) * 12);
    expect(rows.find((x) => x['url'] === `${s.origin}/cal/${year + 4}/01/`)).toMatchObject({
      verdict: 'trap',
    });
    expect(s.requests.filter((q) => q.path.startsWith('/list')).length).toBe(20);
    expect(diagnostics.some((d) => d.code === 'crawl-pattern-capped')).toBe(true);
    // /loop/a/a/ is fine, /loop/a/a/a/ repeats "a" three times.
    expect(s.hits('/loop/a/a/')).toBe(1);
    expect(s.hits('/loop/a/a/a/')).toBe(0);
    expect(rows.find((x) => x['url'] === `${s.origin}/loop/a/a/a/`)).toMatchObject({ verdict: 'trap' });
    expect(r.complete).toBe(true);
  });

  it('max depth and include/exclude patterns keep URLs out without fetching them', async () => {
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html('Home', '<a href="/blog/a">a</a><a href="/shop/b">b</a><a href="/blog/drafts/c">c</a>'),
      '/blog/a': html('A', '<a href="/blog/deep">deep</a>'),
      '/blog/deep': html('Deep'),
      '/shop/b': html('B'),
      '/blog/drafts/c': html('C'),
    });
    const o = setup({
      start: `${s.origin}/`,
      include: ['/blog/**'],
      exclude: ['/blog/drafts/**'],
      maxDepth: 1,
    });
    const r = await crawl(o);
    expect(locs(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8'))).toEqual([
      `${s.origin}/`,
      `${s.origin}/blog/a`,
    ]);
    for (const p of ['/shop/b', '/blog/drafts/c', '/blog/deep']) expect(s.hits(p)).toBe(0);
    expect(r.stats.verdicts).toMatchObject({ excluded: 2, 'too-deep': 1, listed: 2 });
  });
});

describe('politeness', () => {
  it('waits out Retry-After on 429 before asking again (fake clock)', async () => {
    let clock = Date.parse('2026-07-01T00:00:00Z');
    const sleeps: number[] = [];
    const at: number[] = [];
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html('Home', '<a href="/busy">busy</a>'),
      '/busy': (_req, res, { hit }) => {
        at.push(clock);
        if (hit === 1) res.writeHead(429, { 'retry-after': '7' }).end();
        else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Busy</title>');
      },
    });
    const o = setup({
      start: `${s.origin}/`,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
        await new Promise((r) => setImmediate(r));
      },
    });
    await crawl(o);
    expect(s.hits('/busy')).toBe(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(7000);
    expect(sleeps.some((ms) => ms >= 6000)).toBe(true);
    expect(locs(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8'))).toContain(`${s.origin}/busy`);
  });

  it('obeys Crawl-delay (capped) one request at a time, by the fake clock', async () => {
    let clock = 0;
    const at: number[] = [];
    const page =
      (title: string, links = ''): Route =>
      (_req, res) => {
        at.push(clock);
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${title}</title>${links}`);
      };
    const s = await site({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 120\n' },
      '/': page('Home', '<a href="/a">a</a><a href="/b">b</a><a href="/c">c</a>'),
      '/a': page('A'),
      '/b': page('B'),
      '/c': page('C'),
    });
    const diagnostics: Diagnostic[] = [];
    const o = setup({
      start: `${s.origin}/`,
      concurrency: 4,
      maxCrawlDelayMs: 2000,
      onDiagnostic: (d) => diagnostics.push(d),
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        await new Promise((r) => setImmediate(r));
      },
    });
    await crawl(o);
    expect(at).toHaveLength(4);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(2000);
    expect(diagnostics.map((d) => d.code)).toContain('crawl-delay-capped');
  });

  it('sends custom headers and basic auth to the start origin only', async () => {
    const other = await site({ '/robots.txt': ROBOTS, '/x': html('Other') });
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html('Home', `<a href="${other.origin}/x">other</a>`),
    });
    const start = `${s.origin.replace('http://', 'http://ann:s%40cret@')}/`;
    const o = setup({ start, headers: { 'X-Preview': 'yes' }, hosts: [new URL(other.origin).host] });
    await crawl(o);
    expect(s.requests.length).toBeGreaterThanOrEqual(2);
    for (const q of s.requests) {
      expect(q.headers['authorization']).toBe(`Basic ${Buffer.from('ann:s@cret').toString('base64')}`);
      expect(q.headers['x-preview']).toBe('yes');
    }
    expect(other.hits('/x')).toBe(1);
    for (const q of other.requests) {
      expect(q.headers['authorization']).toBeUndefined();
      expect(q.headers['x-preview']).toBeUndefined();
    }
  });
});

describe('robots.txt outcomes', () => {
  it('robots.txt 5xx: nothing is crawled, no state is left, the previous sitemaps are kept', async () => {
    const s = await site({
      '/robots.txt': { status: 503, body: 'down' },
      '/': html('Home', '<a href="/a">a</a>'),
    });
    const o = setup({ start: `${s.origin}/` });
    await writeSitemaps([{ loc: `${s.origin}/previous` }], { outDir: o.outDir, baseUrl: `${s.origin}/` });
    const before = createHash('sha256')
      .update(readFileSync(join(o.outDir, 'sitemap.xml')))
      .digest('hex');
    const error = await crawl(o).catch((e: unknown) => e);
    expect(isSitemapkitError(error, 'ERR_HTTP')).toBe(true);
    expect((error as Error).message).toMatch(/HTTP 503.*nothing was crawled/);
    expect(s.requests.map((q) => q.path)).toEqual(['/robots.txt']);
    expect(
      createHash('sha256')
        .update(readFileSync(join(o.outDir, 'sitemap.xml')))
        .digest('hex'),
    ).toBe(before);
    expect(existsSync(o.state!)).toBe(false);
  });

  it('robots.txt 404 allows everything', async () => {
    const s = await site({ '/': html('Home', '<a href="/private/a">a</a>'), '/private/a': html('A') });
    const o = setup({ start: `${s.origin}/` });
    await crawl(o);
    expect(locs(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8'))).toEqual([
      `${s.origin}/`,
      `${s.origin}/private/a`,
    ]);
  });
});

describe('extensions and origins', () => {
  function i18nSite(): Record<string, Route> {
    const alt = `<link rel="alternate" hreflang="en" href="/en/"><link rel="alternate" hreflang="de" href="/de/">
      <link rel="alternate" hreflang="x-default" href="/">`;
    return {
      '/robots.txt': ROBOTS,
      '/': html('Home', '<a href="/en/">en</a><img src="/img/home.jpg" srcset="/img/home-2x.jpg 2x">', alt),
      '/en/': html(
        'Walking boots',
        '<img src="https://cdn.example.net/boots.jpg"><a href="/fr/">fr</a>',
        alt,
      ),
      '/de/': html('Wanderschuhe', '<img src="data:image/png;base64,AAAA">', alt),
      // Its hreflang set forgets the page itself: the alternates are left out, the page is not.
      '/fr/': html('Chaussures', '', '<link rel="alternate" hreflang="de" href="/de/">'),
    };
  }

  it('hreflang alternates and images end up in extension output that xmllint accepts', async () => {
    const s = await site(i18nSite());
    const diagnostics: Diagnostic[] = [];
    const o = setup({ start: `${s.origin}/`, onDiagnostic: (d) => diagnostics.push(d) });
    await crawl(o);
    const path = join(o.outDir, 'sitemap.xml');
    const xml = readFileSync(path, 'utf8');
    expect(xmllint(path)).toMatchObject({ ok: true });
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="de" href="${s.origin}/de/"/>`);
    expect(xml).toContain(`<image:loc>${s.origin}/img/home-2x.jpg</image:loc>`);
    expect(xml).toContain('<image:loc>https://cdn.example.net/boots.jpg</image:loc>');
    expect(xml).not.toContain('data:image');
    const fr = xml.slice(xml.indexOf(`<loc>${s.origin}/fr/</loc>`));
    expect(fr.slice(0, fr.indexOf('</url>'))).not.toContain('xhtml:link');
    expect(diagnostics.some((d) => d.code === 'hreflang-missing-self' && d.url === `${s.origin}/fr/`)).toBe(
      true,
    );
    // /de/ is only linked through hreflang: the crawler follows alternates.
    expect(locs(xml)).toContain(`${s.origin}/de/`);
  });

  it('--public-origin rewrites pages, alternates and same-site images; the output validates', async () => {
    const routes = i18nSite();
    // A staging build that names the production site: its canonical and links still mean itself.
    routes['/about'] = html(
      'About',
      '<a href="https://www.example.com/team">team</a>',
      '<link rel="canonical" href="https://www.example.com/about">',
    );
    routes['/team'] = html('Team');
    routes['/'] = {
      ...routes['/']!,
      body: String((routes['/'] as { body: string }).body).replace(
        '<a href="/en/">',
        '<a href="/about">about</a><a href="/en/">',
      ),
    };
    const s = await site(routes);
    const o = setup({
      start: `${s.origin}/`,
      publicOrigin: 'https://www.example.com',
      priority: 'depth',
      changefreq: 'weekly',
      sitemaps: { gzip: true, html: true },
    });
    const r = await crawl(o);
    expect(r.sitemaps!.entry.url).toBe('https://www.example.com/sitemap.xml.gz');
    const path = join(o.outDir, 'sitemap.xml.gz');
    expect(xmllint(path)).toMatchObject({ ok: true });
    const xml = readSitemapText(path);
    expect(xml).not.toContain('127.0.0.1');
    expect(xml).toContain(
      '<url><loc>https://www.example.com/</loc><changefreq>weekly</changefreq><priority>1.0</priority>',
    );
    expect(xml).toContain(
      '<loc>https://www.example.com/en/</loc><changefreq>weekly</changefreq><priority>0.8</priority>',
    );
    expect(xml).toContain('<image:loc>https://www.example.com/img/home.jpg</image:loc>');
    expect(xml).toContain('<image:loc>https://cdn.example.net/boots.jpg</image:loc>');
    expect(xml).toContain('hreflang="x-default" href="https://www.example.com/"');
    expect(xml).toContain('<loc>https://www.example.com/about</loc>');
    expect(xml).toContain('<loc>https://www.example.com/team</loc>');
    const htmlMap = readFileSync(join(o.outDir, 'sitemap.html'), 'utf8');
    expect(htmlMap).toContain('https://www.example.com/en/');
  });
});

describe('state', () => {
  it("refuses an unfinished crawl's state without resume, and resume without a state", async () => {
    const s = await site({ '/robots.txt': ROBOTS, '/': html('Home', '<a href="/a">a</a>'), '/a': html('A') });
    const o = setup({ start: `${s.origin}/` });
    const missing = await crawl({ ...o, resume: true }).catch((e: unknown) => e);
    expect(isSitemapkitError(missing, 'ERR_STATE')).toBe(true);
    // Stopped by maxPages: unfinished, so a new crawl on its state is refused.
    await crawl({ ...o, maxPages: 1 });
    const again = await crawl(o).catch((e: unknown) => e);
    expect(isSitemapkitError(again, 'ERR_STATE')).toBe(true);
    expect((again as { hint?: string }).hint).toMatch(/--resume.*--fresh/);
    await crawl({ ...o, fresh: true });
    expect(s.hits('/')).toBe(2);
  });

  it('max pages stops the crawl; resume goes on without fetching a finished page again', async () => {
    const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
    const links = Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">${i}</a>`).join('');
    routes['/'] = html('Home', links);
    for (let i = 0; i < 12; i++) routes[`/p${i}`] = html(`P${i}`, '<a href="/">home</a>');
    const s = await site(routes);
    const o = setup({ start: `${s.origin}/`, maxPages: 5 });
    const first = await crawl(o);
    expect(first.complete).toBe(false);
    expect(first.stats.fetched).toBe(5);
    expect(locs(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8'))).toHaveLength(5);
    const second = await crawl({ ...o, resume: true, maxPages: 100 });
    expect(second.complete).toBe(true);
    expect(second.stats.listed).toBe(13);
    for (const p of Object.keys(routes)) if (p !== '/robots.txt') expect(s.hits(p)).toBe(1);
  });

  it('an aborted crawl keeps its state and leaves the previous sitemaps as they were', async () => {
    const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
    routes['/'] = html('Home', Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
    for (let i = 0; i < 30; i++) routes[`/p${i}`] = { ...html(`P${i}`), delayMs: 20 };
    const s = await site(routes);
    const o = setup({ start: `${s.origin}/`, concurrency: 2 });
    writeFileSync(join(o.dir, 'marker'), '');
    await writeSitemaps([{ loc: `${s.origin}/previous` }], { outDir: o.outDir, baseUrl: `${s.origin}/` });
    const before = readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8');
    const controller = new AbortController();
    let pages = 0;
    const error = await crawl({
      ...o,
      signal: controller.signal,
      onPage: () => {
        if (++pages === 5) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(isSitemapkitError(error, 'ERR_ABORTED')).toBe(true);
    expect(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8')).toBe(before);
    const done = s.requests.length;
    const r = await crawl({ ...o, resume: true });
    expect(r.stats.listed).toBe(31);
    // Only the pages not finished before the abort (at most the two in flight) were asked again.
    expect(s.requests.length - done).toBeLessThanOrEqual(31 - 5 + 2 + 1);
    for (const p of Object.keys(routes)) if (p !== '/robots.txt') expect(s.hits(p)).toBeLessThanOrEqual(2);
  });
});
