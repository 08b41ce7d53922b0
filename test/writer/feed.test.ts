import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntryInput } from '../../src/core/entry.js';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { buildFeed, NewestItems } from '../../src/writer/feed.js';
import { readManifestHeader } from '../../src/writer/manifest.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';
const ATOM = 'http://www.w3.org/2005/Atom';

/** A small element tree (names as written, attributes, text), enough to check a feed's structure. */
interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

function tree(xml: string): El {
  const root: El = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: El[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const el: El = { name, attrs, children: [], text: '' };
        stack[stack.length - 1]!.children.push(el);
        stack.push(el);
      },
      ontext(t) {
        stack[stack.length - 1]!.text += t;
      },
      onclosetag() {
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.end(xml);
  expect(root.children).toHaveLength(1);
  return root.children[0]!;
}

/** xmllint's verdict on a feed: well-formed XML (no schema: see checkAtom). */
function wellFormed(path: string): void {
  const r = spawnSync('xmllint', ['--noout', '--nonet', path], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
}

const kids = (el: El, name: string): El[] => el.children.filter((c) => c.name === name);
function one(el: El, name: string): El {
  const found = kids(el, name);
  expect(found, `${el.name} must hold exactly one ${name}`).toHaveLength(1);
  return found[0]!;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const RFC822 =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * RFC 4287's rules for what a document must hold (no Atom RELAX NG schema ships with Debian, so
 * the structure is checked here): feed id, title, updated, an author (no entry has one), and per
 * entry exactly one id, title, updated, and an alternate link (there is no content).
 */
function checkAtom(xml: string): Array<{ id: string; title: string; updated: string }> {
  const feed = tree(xml);
  expect(feed.name).toBe('feed');
  expect(feed.attrs['xmlns']).toBe(ATOM);
  expect(one(feed, 'id').text).toMatch(/^https?:\/\//);
  expect(one(feed, 'title').text).not.toBe('');
  expect(one(feed, 'updated').text).toMatch(RFC3339);
  expect(one(one(feed, 'author'), 'name').text).not.toBe('');
  expect(kids(feed, 'link').filter((l) => l.attrs['rel'] === 'self')).toHaveLength(1);
  return kids(feed, 'entry').map((e) => {
    const id = one(e, 'id').text;
    const updated = one(e, 'updated').text;
    expect(updated).toMatch(RFC3339);
    const alternate = kids(e, 'link').filter((l) => (l.attrs['rel'] ?? 'alternate') === 'alternate');
    expect(alternate).toHaveLength(1);
    expect(alternate[0]!.attrs['href']).toBe(id);
    return { id, title: one(e, 'title').text, updated };
  });
}

/** RSS 2.0: channel title, link, description; per item link, guid and an RFC 822 pubDate. */
function checkRss(xml: string): Array<{ link: string; title: string; pubDate: string }> {
  const rss = tree(xml);
  expect(rss.name).toBe('rss');
  expect(rss.attrs['version']).toBe('2.0');
  const channel = one(rss, 'channel');
  for (const f of ['title', 'link', 'description']) expect(one(channel, f).text).not.toBe('');
  return kids(channel, 'item').map((i) => {
    const link = one(i, 'link').text;
    expect(one(i, 'guid').text).toBe(link);
    const pubDate = one(i, 'pubDate').text;
    expect(pubDate).toMatch(RFC822);
    return { link, title: one(i, 'title').text, pubDate };
  });
}

function page(i: number, lastmod: string, title?: string): EntryInput {
  return title === undefined ? { loc: `${BASE}p/${i}`, lastmod } : { loc: `${BASE}p/${i}`, lastmod, title };
}

beforeAll(() => assertXmllint());

describe('the newest N items', () => {
  it('holds exactly the N newest of arbitrary items, newest first, ties by URL (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ms: fc.integer({ min: 0, max: 50 }), n: fc.integer({ min: 0, max: 30 }) }), {
          maxLength: 200,
        }),
        fc.integer({ min: 1, max: 40 }),
        (items, size) => {
          const unique = [...new Map(items.map((x) => [x.n, x])).values()];
          const heap = new NewestItems(size);
          for (const x of unique) heap.offer(x.ms, `${BASE}${x.n}`, undefined);
          const expected = [...unique]
            .map((x) => ({ ms: x.ms, loc: `${BASE}${x.n}` }))
            .sort((a, b) => b.ms - a.ms || (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0))
            .slice(0, size);
          expect(heap.sorted().map(({ ms, loc }) => ({ ms, loc }))).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('feed: atom', () => {
  it('writes the newest URLs as valid Atom beside the sitemaps, plain while they are gzipped, in the manifest', async () => {
    const out = tempDir();
    const entries = [
      page(1, '2026-11-20', 'Old & dusty'),
      page(2, '2026-11-25T10:00:00+02:00', 'Newest <one>'),
      page(3, '2026-11-24T09:30:00Z'),
      { loc: `${BASE}no-date` },
      {
        loc: `${BASE}story`,
        news: {
          publication: { name: 'T', language: 'en' },
          publication_date: '2026-11-25T09:00:00Z',
          title: 'A story',
        },
      },
    ];
    const r = await writeSitemaps(entries, {
      outDir: out,
      baseUrl: BASE,
      gzip: true,
      feed: { format: 'atom', size: 3 },
      now: () => new Date('2026-11-26T00:00:00Z'),
    });
    const xml = readFileSync(join(out, 'feed.xml'), 'utf8');
    wellFormed(join(out, 'feed.xml'));
    expect(existsSync(join(out, 'feed.xml.gz'))).toBe(false);
    expect(checkAtom(xml)).toEqual([
      { id: `${BASE}story`, title: 'A story', updated: '2026-11-25T09:00:00Z' },
      { id: `${BASE}p/2`, title: 'Newest <one>', updated: '2026-11-25T08:00:00Z' },
      { id: `${BASE}p/3`, title: `${BASE}p/3`, updated: '2026-11-24T09:30:00Z' },
    ]);
    // The feed's own time is its newest entry's, not the clock's.
    expect(one(tree(xml), 'updated').text).toBe('2026-11-25T09:00:00Z');
    const header = await readManifestHeader(out);
    const feed = header!.files.find((f) => f.path === 'feed.xml')!;
    expect(feed).toMatchObject({
      kind: 'feed',
      url: `${BASE}feed.xml`,
      urls: 3,
      bytes: Buffer.byteLength(xml),
    });
    expect(r.files.some((f) => f.path.endsWith('feed.xml'))).toBe(false);
  });

  it('reads back through the parser as a sitemap (round trip) and passes validate', async () => {
    const out = tempDir();
    const entries = Array.from({ length: 30 }, (_, i) =>
      page(
        i,
        new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString().replace('.000Z', 'Z'),
        `Page ${i}`,
      ),
    );
    await writeSitemaps(entries, { outDir: out, baseUrl: BASE, feed: { format: 'atom', size: 10 } });
    const parsed = await parseSitemapToArray(join(out, 'feed.xml'), { sitemapUrl: `${BASE}feed.xml` });
    const newest = entries.slice(-10).reverse();
    expect(parsed.items.map((e) => ('loc' in e ? [e.loc, (e as { lastmod?: string }).lastmod] : []))).toEqual(
      newest.map((e) => [e.loc, e.lastmod]),
    );
    const v = await validateSitemap(join(out, 'feed.xml'), {
      robots: false,
      now: () => Date.parse('2026-11-26T00:00:00Z'),
    });
    expect(v.summary.errors).toBe(0);
    expect(v.summary.urls).toBe(10);
  });

  it('is byte-identical across two builds of the same input, on different days', async () => {
    const entries = Array.from({ length: 50 }, (_, i) =>
      page(i, `2026-10-${String((i % 28) + 1).padStart(2, '0')}`),
    );
    const build = async (day: string) =>
      (
        await writeSitemaps(entries, {
          output: 'memory',
          baseUrl: BASE,
          feed: { format: 'atom' },
          now: () => new Date(day),
        })
      ).memory!.get('feed.xml')!;
    const a = await build('2026-11-01T00:00:00Z');
    const b = await build('2026-12-24T13:14:15Z');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('takes the URLs a store hands over (feed.items) instead of the build entries', async () => {
    const r = await writeSitemaps([page(1, '2026-11-25')], {
      output: 'memory',
      baseUrl: BASE,
      feed: {
        format: 'atom',
        size: 2,
        items: [
          { loc: `${BASE}added`, time: '2026-11-24T08:00:00Z', title: 'Added' },
          { loc: `${BASE}changed`, time: new Date('2026-11-24T09:00:00Z') },
          { loc: `${BASE}older`, time: '2026-11-01' },
        ],
      },
    });
    const items = checkAtom(Buffer.from(r.memory!.get('feed.xml')!).toString('utf8'));
    expect(items.map((i) => i.id)).toEqual([`${BASE}changed`, `${BASE}added`]);
    // And buildFeed gives the same document for callers that publish a feed themselves.
    const alone = await buildFeed(
      [
        { loc: `${BASE}added`, time: '2026-11-24T08:00:00Z', title: 'Added' },
        { loc: `${BASE}changed`, time: new Date('2026-11-24T09:00:00Z') },
        { loc: `${BASE}older`, time: '2026-11-01' },
      ],
      { format: 'atom', size: 2, baseUrl: BASE, emptyTime: new Date(0) },
    );
    expect(alone.text).toBe(Buffer.from(r.memory!.get('feed.xml')!).toString('utf8'));
  });

  it('refuses a bad feed option with one sentence', async () => {
    const bad = (feed: unknown) =>
      writeSitemaps([page(1, '2026-11-25')], { output: 'memory', baseUrl: BASE, feed: feed as never });
    await expect(bad({ format: 'json' })).rejects.toThrow('feed.format must be atom or rss, not json');
    await expect(bad({ format: 'rss', size: 0 })).rejects.toThrow(/feed.size must be a whole number from 1/);
  });
});

describe('feed: rss', () => {
  it('writes valid RSS 2.0 with RFC 822 dates, which the parser reads back', async () => {
    const out = tempDir();
    const entries = [page(1, '2026-11-20T10:00:00Z', 'One'), page(2, '2026-11-21', 'Two & more')];
    await writeSitemaps(entries, {
      outDir: out,
      baseUrl: BASE,
      feed: { format: 'rss', title: 'Example news' },
    });
    const xml = readFileSync(join(out, 'feed.xml'), 'utf8');
    wellFormed(join(out, 'feed.xml'));
    expect(one(one(tree(xml), 'channel'), 'title').text).toBe('Example news');
    expect(checkRss(xml)).toEqual([
      { link: `${BASE}p/2`, title: 'Two & more', pubDate: 'Sat, 21 Nov 2026 00:00:00 GMT' },
      { link: `${BASE}p/1`, title: 'One', pubDate: 'Fri, 20 Nov 2026 10:00:00 GMT' },
    ]);
    const parsed = await parseSitemapToArray(join(out, 'feed.xml'), { sitemapUrl: `${BASE}feed.xml` });
    expect(parsed.items.map((e) => ('loc' in e ? [e.loc, (e as { lastmod?: string }).lastmod] : []))).toEqual(
      [
        [`${BASE}p/2`, '2026-11-21T00:00:00Z'],
        [`${BASE}p/1`, '2026-11-20T10:00:00Z'],
      ],
    );
  });
});

describe('feed: a folder of its own', () => {
  it("never replaces a feed.xml the writer did not write (a site generator's feed): nothing is published", async () => {
    const out = tempDir();
    writeFileSync(join(out, 'feed.xml'), '<rss version="2.0"><channel/></rss>\n');
    const entries = [page(1, '2026-11-20')];
    const e = await writeSitemaps(entries, { outDir: out, baseUrl: BASE, feed: { format: 'atom' } }).then(
      () => undefined,
      (error: unknown) => error as { code: string; message: string },
    );
    expect(e?.code).toBe('ERR_OUTPUT');
    expect(e?.message).toContain(`${join(out, 'feed.xml')} exists and was not written by sitemapkit`);
    expect(readFileSync(join(out, 'feed.xml'), 'utf8')).toBe('<rss version="2.0"><channel/></rss>\n');
    expect(existsSync(join(out, 'sitemap.xml'))).toBe(false);
    // Its own feed, from the previous build, is replaced as any file of the set.
    const other = tempDir();
    await writeSitemaps(entries, { outDir: other, baseUrl: BASE, feed: { format: 'atom' } });
    const r = await writeSitemaps([page(2, '2026-11-21')], {
      outDir: other,
      baseUrl: BASE,
      feed: { format: 'rss' },
    });
    expect(r.feed).toMatchObject({
      path: join(other, 'feed.xml'),
      url: `${BASE}feed.xml`,
      kind: 'feed',
      urls: 1,
    });
    expect(checkRss(readFileSync(join(other, 'feed.xml'), 'utf8')).map((i) => i.link)).toEqual([
      `${BASE}p/2`,
    ]);
  });
});

describe('feed on the command line', () => {
  it('generate --feed rss --feed-size, with --update-robots naming the feed; a build without --feed takes the line away', async () => {
    const dir = tempDir();
    const input = join(dir, 'pages.jsonl');
    writeFileSync(
      input,
      `${Array.from({ length: 5 }, (_, i) => JSON.stringify(page(i, `2026-11-0${i + 1}`, `Page ${i}`))).join('\n')}\n`,
    );
    const robots = join(dir, 'robots.txt');
    writeFileSync(robots, 'User-agent: *\nDisallow:\n');
    const out = join(dir, 'out');
    const args = ['generate', input, '--base-url', BASE, '--out', out, '--update-robots', robots];
    const a = await runBin([...args, '--feed', 'rss', '--feed-size', '2']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain(`delta feed: ${join(out, 'feed.xml')} (2 URLs)`);
    expect(checkRss(readFileSync(join(out, 'feed.xml'), 'utf8')).map((i) => i.link)).toEqual([
      `${BASE}p/4`,
      `${BASE}p/3`,
    ]);
    expect(readFileSync(robots, 'utf8')).toBe(
      `User-agent: *\nDisallow:\n\nSitemap: ${BASE}sitemap.xml\nSitemap: ${BASE}feed.xml\n`,
    );
    const b = await runBin(args);
    expect(b.code, b.stderr).toBe(0);
    expect(existsSync(join(out, 'feed.xml'))).toBe(false);
    expect(readFileSync(robots, 'utf8')).toBe(`User-agent: *\nDisallow:\n\nSitemap: ${BASE}sitemap.xml\n`);
    const c = await runBin([...args, '--feed', 'rss', '--feed-size', '0']);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--feed-size');
    const d = await runBin([...args, '--feed-size', '5']);
    expect(d.code).toBe(2);
    expect(d.stderr).toContain('--feed-size needs --feed atom|rss');
    const e = await runBin([...args, '--feed', 'atom', '--feed-title', ' ']);
    expect(e.code).toBe(2);
    expect(e.stderr).toContain('--feed-title needs a title');
  });
});
