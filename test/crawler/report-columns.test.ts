import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { launchChromium, saveScreenshot } from '../support/browser.js';
import {
  type Answer,
  html,
  redirect,
  type TestServer as Site,
  slow,
  startServer,
  startStaticServer,
} from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

/** The header of urls.csv, in its documented order (docs/crawl.md). */
const HEADER = [
  'url',
  'depth',
  'status',
  'verdict',
  'reason',
  'target',
  'content_type',
  'title',
  'lastmod',
  'source',
  'via',
  'inlinks',
  'bytes',
  'ms',
  'attempts',
  'canonical',
  'description_length',
  'rendered',
  'js_only_links',
  'render_differences',
];

// A site whose every column is known: statuses, depths, inlinks, titles, descriptions (one with
// an emoji: 10 characters, 11 UTF-16 units), canonicals, sizes and content types.
const PAGES: Record<string, Answer> = {
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  '/': html(
    'Home',
    '<a href="/a">a</a><a href="/b">b</a><a href="/missing">m</a><a href="/moved">r</a><a href="/data.json">j</a>',
    '<meta name="description" content="Welcome home"><link rel="canonical" href="/">',
  ),
  '/a': html(
    'Page A',
    '<a href="/b">b</a><a href="/c">c</a><a href="/">home</a>',
    '<meta name="description" content="  Hi 👋 there "><meta name="description" content="second, ignored">',
  ),
  '/b': html('Page B', '<p>B</p>', '<link rel="canonical" href="/a">'),
  // At least 300 ms: a lower bound holds on any machine.
  '/c': slow(300, html('Page C', '<a href="/deep">deep</a>', '<meta name="description" content="">')),
  '/deep': html('Deep', '<a href="/">home</a>'),
  '/missing': {
    status: 404,
    headers: { 'content-type': 'text/html', 'content-length': '11' },
    body: '<p>nope</p>',
  },
  '/moved': redirect('/a', 301),
  '/data.json': { headers: { 'content-type': 'application/json', 'content-length': '7' }, body: '{"a":1}' },
};

function size(path: string): number {
  return Buffer.byteLength(String((PAGES[path] as Answer).body ?? ''));
}

let site: Site;
let dir: string;
let csv: Array<Record<string, string>>;
let jsonl: Array<Record<string, unknown>>;

beforeAll(async () => {
  site = await startServer(PAGES);
  dir = tempDir('sk-report-columns');
  await crawl({ start: `${site.origin}/`, outDir: join(dir, 'out'), report: join(dir, 'report') });
  const text = readFileSync(join(dir, 'report/urls.csv'), 'utf8');
  expect(text.slice(0, text.indexOf('\r\n')).split(',')).toEqual(HEADER);
  csv = parse(text, { columns: true }) as Array<Record<string, string>>;
  jsonl = readFileSync(join(dir, 'report/urls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}, 60_000);

afterAll(async () => {
  await site?.close();
});

function row(path: string): Record<string, string> {
  const r = csv.find((x) => x['url'] === `${site.origin}${path}`);
  if (r === undefined) throw new Error(`${path} is not in urls.csv`);
  return r;
}

function column(name: string): Record<string, string> {
  return Object.fromEntries(csv.map((r) => [new URL(r['url']!).pathname, r[name]!]));
}

describe('urls.csv and urls.jsonl: the per-page columns (issue 14, item 3)', () => {
  it('status, verdict and why', () => {
    expect(column('status')).toEqual({
      '/': '200',
      '/a': '200',
      '/b': '200',
      '/c': '200',
      '/deep': '200',
      '/missing': '404',
      '/moved': '301',
      '/data.json': '200',
    });
    expect(column('verdict')).toEqual({
      '/': 'listed',
      '/a': 'listed',
      '/b': 'canonicalised',
      '/c': 'listed',
      '/deep': 'listed',
      '/missing': 'broken',
      '/moved': 'redirect',
      '/data.json': 'non-html',
    });
    expect(row('/b')['reason']).toBe('its canonical is another URL');
    expect(row('/missing')['reason']).toMatch(/404/);
    expect(row('/moved')['target']).toBe(`${site.origin}/a`);
  });

  it('depth and inlinks (from the link graph: distinct pages linking, a page never counting itself)', () => {
    expect(column('depth')).toEqual({
      '/': '0',
      '/a': '1',
      '/b': '1',
      '/c': '2',
      '/deep': '3',
      '/missing': '1',
      '/moved': '1',
      '/data.json': '1',
    });
    expect(column('inlinks')).toMatchObject({
      '/': '2',
      '/b': '2',
      '/c': '1',
      '/deep': '1',
      '/missing': '1',
      '/moved': '1',
      '/data.json': '1',
    });
    // Linked from the home page, and reached by /moved's redirect and /b's canonical.
    expect(row('/a')['inlinks']).toBe('3');
  });

  it('title, meta description length (characters, the first description) and canonical', () => {
    expect(column('title')).toMatchObject({ '/': 'Home', '/a': 'Page A', '/b': 'Page B', '/deep': 'Deep' });
    expect(column('description_length')).toEqual({
      '/': '12',
      '/a': '10',
      '/b': '',
      '/c': '0',
      '/deep': '',
      '/missing': '',
      '/moved': '',
      '/data.json': '',
    });
    expect(column('canonical')).toMatchObject({
      '/': `${site.origin}/`,
      '/a': '',
      '/b': `${site.origin}/a`,
      '/missing': '',
    });
  });

  it('response time, bytes and content type', () => {
    expect(Number(row('/c')['ms'])).toBeGreaterThanOrEqual(300);
    for (const r of csv) expect(r['ms'], r['url']).toMatch(/^\d+$/);
    for (const p of ['/', '/a', '/b', '/deep', '/data.json', '/missing'])
      expect(row(p)['bytes'], p).toBe(String(size(p)));
    // A body that is not read (a 404, a file that is not a page) has its Content-Length; a
    // redirect that announces none has no size.
    expect(row('/moved')['bytes']).toBe('');
    expect(row('/')['content_type']).toBe('text/html; charset=utf-8');
    expect(row('/data.json')['content_type']).toBe('application/json');
  });

  it('urls.jsonl has the same values under its keys, one object per URL', () => {
    expect(jsonl).toHaveLength(csv.length);
    const keys: Record<string, string> = {
      content_type: 'contentType',
      description_length: 'descriptionLength',
      js_only_links: 'jsOnlyLinks',
      render_differences: 'renderDifferences',
    };
    for (const [i, r] of csv.entries()) {
      const j = jsonl[i]!;
      for (const h of HEADER) {
        const v = j[keys[h] ?? h];
        expect(v === null ? '' : String(v), `${r['url']} ${h}`).toBe(r[h]);
      }
    }
    expect(jsonl.find((j) => j['url'] === `${site.origin}/a`)).toMatchObject({
      canonical: null,
      descriptionLength: 10,
    });
  });
});

describe('report.html in Chromium', () => {
  it('draws the four charts and the pages table, sorts and filters it, without console errors', async () => {
    const server = await startStaticServer(join(dir, 'report'));
    const chromium = await launchChromium();
    try {
      const w = await chromium.newPage({ width: 1280, height: 900 });
      expect((await w.page.goto(`${server.url}report.html`))?.status()).toBe(200);
      const charts = await w.page.$$eval('figure', (fs) =>
        fs.map((f) => ({ id: f.id, bars: f.querySelectorAll('svg rect').length })),
      );
      expect(charts).toEqual([
        { id: 'chart-verdicts', bars: 5 },
        { id: 'chart-status', bars: 3 },
        { id: 'chart-depth', bars: 4 },
        { id: 'chart-ms', bars: 7 },
      ]);
      // The response-time chart: /c took 300 ms or more, so not every page is in the first bucket.
      const msBars = await w.page.$$eval('#chart-ms svg title', (ts) => ts.map((t) => t.textContent));
      expect(msBars[0]).toMatch(/^0–99 ms: \d$/);
      const rows = (): Promise<string[]> =>
        w.page.$$eval('#pages tbody tr:not([hidden]) td:first-child', (tds) =>
          tds.map((td) => new URL(td.textContent ?? '').pathname),
        );
      expect(await rows()).toHaveLength(8);
      await saveScreenshot(w.page, 'crawl-report');
      await w.page.click('#pages th:nth-child(6)'); // inlinks, ascending
      await w.page.click('#pages th:nth-child(6)'); // descending
      const byInlinks = await w.page.$$eval('#pages tbody tr td:nth-child(6)', (tds) =>
        tds.map((td) => Number(td.getAttribute('data-n'))),
      );
      expect(byInlinks).toEqual([...byInlinks].sort((a, b) => b - a));
      await w.page.fill('#q', 'canonicalised');
      expect(await rows()).toEqual(['/b']);
      expect(w.problems()).toEqual([]);
    } finally {
      await chromium.close();
      await server.close();
    }
  }, 120_000);
});

describe('crawl state format 3', () => {
  it('opens a state of format 2 (before the canonical and description columns), migrates it, and a recrawl fills them', async () => {
    const d = tempDir('sk-report-v2');
    const v2 = join(d, 'v2.db');
    const options = { start: `${site.origin}/`, outDir: join(d, 'out'), state: v2 };
    await crawl(options);
    // The same crawl as the previous release stored it: without the two columns, version 2.
    const db = new Database(v2);
    db.exec(
      'ALTER TABLE urls DROP COLUMN canonical; ALTER TABLE urls DROP COLUMN description_length; ALTER TABLE urls DROP COLUMN rendered',
    );
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'version'").run();
    db.close();
    await crawl({ ...options, recrawl: true, report: join(d, 'report') });
    const check = new Database(v2, { readonly: true });
    try {
      expect(check.prepare("SELECT value FROM meta WHERE key = 'version'").get()).toEqual({ value: '4' });
      expect(
        check
          .prepare('SELECT canonical, description_length AS d FROM urls WHERE url = ?')
          .get(`${site.origin}/`),
      ).toEqual({ canonical: `${site.origin}/`, d: 12 });
    } finally {
      check.close();
    }
    const csvText = readFileSync(join(d, 'report/urls.csv'), 'utf8');
    const rows = parse(csvText, { columns: true }) as Array<Record<string, string>>;
    expect(rows.find((r) => r['url'] === `${site.origin}/b`)).toMatchObject({
      canonical: `${site.origin}/a`,
    });
  });
});
