import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnsArg } from '../../src/cli/input-flags.js';
import { readCsv, readJsonl, readStaticSite } from '../../src/sources/index.js';
import { UnreadableRecord } from '../../src/writer/write-sitemaps.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { readSitemapText } from '../support/xmllint.js';
import { all, failure } from './helpers.js';

const BASE = 'https://example.com/';
const FIXTURES = new URL('../fixtures/sources/', import.meta.url);

/** `sitemapkit generate FILE --base-url BASE --out OUT ...extra`, in process. */
function generate(file: string, out: string, ...extra: string[]): ReturnType<typeof cli> {
  return cli(['generate', file, '--base-url', BASE, '--out', out, ...extra]);
}

function fixture(name: string, dir: string): string {
  const to = join(dir, name);
  copyFileSync(new URL(name, FIXTURES), to);
  return to;
}

describe('generate: the encoding of text inputs', () => {
  it('a Windows-1252 text list fails naming the file and line; with --encoding it is written right', async () => {
    const dir = tempDir();
    const file = fixture('windows-1252.txt', dir);
    const out = join(dir, 'out');
    const r = await generate(file, out, '--html');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:2: the text is not valid UTF-8`);
    expect(r.stderr).toContain('--encoding windows-1252');
    const ok = await generate(file, out, '--html', '--encoding', 'windows-1252');
    expect(ok.code, ok.stderr).toBe(0);
    const xml = readSitemapText(join(out, 'sitemap.xml'));
    expect(xml).toContain('<loc>https://example.com/gr%C3%B6%C3%9Fe</loc>');
    expect(xml).not.toContain('%EF%BF%BD');
    const html = readFileSync(join(out, 'sitemap.html'), 'utf8');
    expect(html).not.toContain('\uFFFD');
  });

  it('an Excel CSV (Windows-1252, semicolons, its own headers, a price column, epoch dates) reads with flags', async () => {
    const dir = tempDir();
    const file = fixture('products-excel.csv', dir);
    const out = join(dir, 'out');
    const bad = await generate(file, out);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${file}:2: the text is not valid UTF-8`);
    const noMap = await generate(file, out, '--encoding', 'windows-1252');
    expect(noMap.code).toBe(2);
    expect(noMap.stderr).toContain('unknown CSV columns "Price", "Stock", "Last Modified"');
    expect(noMap.stderr).toContain('--extra-columns ignore');
    const ok = await generate(
      file,
      out,
      '--encoding',
      'windows-1252',
      '--columns',
      'loc=URL,lastmod="Last Modified"',
      '--ignore-columns',
      'Price,Stock',
      '--html',
    );
    expect(ok.code, ok.stderr).toBe(0);
    const xml = readSitemapText(join(out, 'sitemap.xml'));
    expect(xml).toContain('<loc>https://example.com/gr%C3%B6%C3%9Fe</loc>');
    expect(xml).toContain('<lastmod>2023-11-14T22:13:20Z</lastmod>');
    expect(xml).toContain('<lastmod>2024-01-15</lastmod>');
    expect(readFileSync(join(out, 'sitemap.html'), 'utf8')).toContain('Größe 42 – Schuhe');
    const extra = await generate(
      file,
      out,
      '--encoding',
      'windows-1252',
      '--columns',
      'loc=URL',
      '--extra-columns',
      'ignore',
    );
    expect(extra.code, extra.stderr).toBe(0);
  });

  it('usage errors for --encoding, --delimiter and --columns', async () => {
    const base = ['generate', 'x.txt', '--base-url', BASE, '--out', tempDir()];
    const a = await cli([...base, '--encoding', 'klingon']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--encoding "klingon"');
    expect((await cli([...base, '--delimiter', ';;'])).code).toBe(2);
    const c = await cli([...base, '--columns', 'loc']);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('FIELD=HEADER');
    expect((await cli([...base, '--image-max-share', '2'])).code).toBe(2);
  });
});

describe('--columns', () => {
  it('reads FIELD=HEADER pairs, quoted or as the shell leaves them, and adds repeated flags up', () => {
    expect(columnsArg('loc=URL,lastmod="Last Modified"')).toEqual({ loc: 'URL', lastmod: 'Last Modified' });
    // `--columns loc=URL,lastmod="Last Modified"` typed in a shell arrives without the quotes.
    expect(columnsArg('loc=URL,lastmod=Last Modified')).toEqual({ loc: 'URL', lastmod: 'Last Modified' });
    expect(columnsArg('title="Name, short"', { loc: 'URL' })).toEqual({ loc: 'URL', title: 'Name, short' });
    expect(() => columnsArg('loc')).toThrow(/FIELD=HEADER/);
  });
});

describe('readCsv', () => {
  it('detects a tab or semicolon delimiter, or takes the one given', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.csv'), `loc\ttitle\n${BASE}a\tA, with a comma\n`);
    writeFileSync(join(dir, 's.csv'), `"loc";"title"\n${BASE}b;"B; quoted"\n`);
    writeFileSync(join(dir, 'p.csv'), `loc|title\n${BASE}c|C\n`);
    expect((await all(readCsv(join(dir, 't.csv'))))[0]).toMatchObject({
      loc: `${BASE}a`,
      title: 'A, with a comma',
    });
    expect((await all(readCsv(join(dir, 's.csv'))))[0]).toMatchObject({
      loc: `${BASE}b`,
      title: 'B; quoted',
    });
    expect((await all(readCsv(join(dir, 'p.csv'), undefined, { delimiter: '|' })))[0]).toMatchObject({
      loc: `${BASE}c`,
      title: 'C',
    });
  });

  it('reads epoch seconds and milliseconds as dates, and images separated by | (URLs with spaces) or spaces', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.csv'),
      `loc,lastmod,images\n${BASE}a,1700000000,${BASE}1.jpg ${BASE}2.jpg\n${BASE}b,1700000000000,${BASE}my photo.jpg | ${BASE}other photo.jpg\n${BASE}c,2024,\n`,
    );
    const recs = await all(readCsv(join(dir, 'a.csv')));
    expect(recs[0]).toMatchObject({ lastmod: 1700000000, images: [`${BASE}1.jpg`, `${BASE}2.jpg`] });
    expect(recs[1]).toMatchObject({
      lastmod: 1700000000000,
      images: [`${BASE}my photo.jpg`, `${BASE}other photo.jpg`],
    });
    // Four digits are a year, not an epoch: left for the writer to judge.
    expect(recs[2]!['lastmod']).toBe('2024');
  });

  it('a header row without a URL column suggests --columns', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.csv'), `Address,Name\n${BASE},x\n`);
    const e = await failure(all(readCsv(join(dir, 'a.csv'))));
    expect(e.where).toBe(`${join(dir, 'a.csv')}:1`);
    expect(e.hint).toContain('--columns loc="Address"');
  });

  it('a bad columns option is an options error', async () => {
    const e = await failure(all(readCsv('x.csv', undefined, { columns: { price: 'Price' } })));
    expect(e.code).toBe('ERR_OPTIONS');
  });
});

describe('readJsonl', () => {
  it('reads url as loc and suggests loc for near-misses', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.jsonl'),
      [
        { url: `${BASE}a`, title: 'A' },
        { Loc: `${BASE}b` },
        { link: `${BASE}c` },
        { href: `${BASE}d` },
        { uri: `${BASE}e` },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    const recs = await all(readJsonl(join(dir, 'a.jsonl')));
    expect(recs[0]).toMatchObject({ loc: `${BASE}a`, title: 'A' });
    expect(Object.keys(recs[0]!)).toEqual(['loc', 'title']);
    for (const [i, key] of [
      [1, 'Loc'],
      [2, 'link'],
      [3, 'href'],
      [4, 'uri'],
    ] as const) {
      expect(recs[i]).toBeInstanceOf(UnreadableRecord);
      expect((recs[i] as UnreadableRecord).message).toBe(
        `the entry has no "loc" field but has "${key}": did you mean loc?`,
      );
    }
  });

  it('the CLI names the line of a near-miss', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), `{"loc":"${BASE}"}\n{"Loc":"${BASE}x"}\n`);
    const r = await cli(['generate', join(dir, 'a.jsonl'), '--base-url', BASE, '--out', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'a.jsonl')}:2: error record-unreadable`);
    expect(r.stderr).toContain('did you mean loc?');
  });
});

describe('readStaticSite', () => {
  function site(pages: Record<string, string | Buffer>): string {
    const dir = tempDir();
    for (const [name, body] of Object.entries(pages)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), body);
    }
    return dir;
  }

  it('decodes pages by their BOM or <meta charset>, as the crawler does', async () => {
    // Real Windows-1252 bytes: ö ß Ü as in Latin-1, the en dash as 0x96.
    const latin = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"><title>Größe ', 'latin1'),
      Buffer.from([0x96]),
      Buffer.from(' Übersicht</title></head><body></body></html>', 'latin1'),
    ]);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<html><head><title>Größe</title></head></html>', 'utf16le'),
    ]);
    const dir = site({ 'a.html': latin, 'b.html': utf16 });
    const recs = await all(readStaticSite({ dir, baseUrl: BASE, lastmod: 'none' }));
    expect(recs.map((r) => r['title'])).toEqual(['Größe – Übersicht', 'Größe']);
  });

  it('leaves out a template image on more than half of the pages, and images matching --exclude-images', async () => {
    const page = (own: string): string =>
      `<html><head><title>t</title></head><body><img src="/logo.png" alt=""><img src="/img/${own}.jpg"><img src="/badges/b.png"></body></html>`;
    const dir = site({ 'a.html': page('a'), 'b.html': page('b'), 'c.html': page('c'), 'd.html': page('d') });
    const recs = await all(
      readStaticSite({ dir, baseUrl: BASE, lastmod: 'none', imageFilter: { exclude: [] } }),
    );
    // The badge is on every page too: left out with the logo.
    expect(recs.map((r) => r['images'])).toEqual([
      [`${BASE}img/a.jpg`],
      [`${BASE}img/b.jpg`],
      [`${BASE}img/c.jpg`],
      [`${BASE}img/d.jpg`],
    ]);
    const all1 = await all(
      readStaticSite({ dir, baseUrl: BASE, lastmod: 'none', imageFilter: { maxShare: 1 } }),
    );
    expect(all1[0]!['images']).toEqual([`${BASE}logo.png`, `${BASE}img/a.jpg`, `${BASE}badges/b.png`]);
    const ex = await all(
      readStaticSite({
        dir,
        baseUrl: BASE,
        lastmod: 'none',
        imageFilter: { maxShare: 1, exclude: ['/badges/**', '**/logo.*'] },
      }),
    );
    expect(ex[0]!['images']).toEqual([`${BASE}img/a.jpg`]);
  });

  it('judges no image by its share below four pages', async () => {
    const page = '<html><body><img src="/logo.png"></body></html>';
    const dir = site({ 'a.html': page, 'b.html': page, 'c.html': page });
    const recs = await all(readStaticSite({ dir, baseUrl: BASE, lastmod: 'none' }));
    expect(recs.map((r) => r['images'])).toEqual([
      [`${BASE}logo.png`],
      [`${BASE}logo.png`],
      [`${BASE}logo.png`],
    ]);
  });

  it('generate --from-dir --image-max-share and --exclude-images', async () => {
    const page = (own: string): string =>
      `<html><body><img src="/logo.png"><img src="/img/${own}.jpg"></body></html>`;
    const dir = site({ 'a.html': page('a'), 'b.html': page('b'), 'c.html': page('c'), 'd.html': page('d') });
    const out = join(tempDir(), 'out');
    const run = (...extra: string[]) =>
      cli(['generate', '--from-dir', dir, '--base-url', BASE, '--out', out, '--lastmod', 'none', ...extra]);
    expect((await run()).code).toBe(0);
    expect(readSitemapText(join(out, 'sitemap.xml'))).not.toContain('logo.png');
    expect((await run('--image-max-share', '100%')).code).toBe(0);
    expect(readSitemapText(join(out, 'sitemap.xml'))).toContain('logo.png');
    expect((await run('--image-max-share', '1', '--exclude-images', '**/img/a.*')).code).toBe(0);
    const xml = readSitemapText(join(out, 'sitemap.xml'));
    expect(xml).toContain('logo.png');
    expect(xml).not.toContain('img/a.jpg');
  });
});
