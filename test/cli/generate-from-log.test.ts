import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cli, runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { readSitemapText, xmllint } from '../support/xmllint.js';

const FIXTURES = new URL('../fixtures/logs/', import.meta.url);
const BASE = ['--base-url', 'https://example.com/'];

function logs(): { dir: string; nginx: string; apache: string } {
  const dir = tempDir();
  const nginx = join(dir, 'access.log');
  const apache = join(dir, 'access.log.2.gz');
  copyFileSync(new URL('nginx-combined.log', FIXTURES), nginx);
  writeFileSync(apache, gzipSync(readFileSync(new URL('apache-common.log', FIXTURES))));
  return { dir, nginx, apache };
}

describe('generate --from-log', () => {
  it('the built CLI: an nginx log and a gzip-rotated Apache log become one valid sitemap, with a summary per log', async () => {
    const { dir, nginx, apache } = logs();
    const out = join(dir, 'out');
    const r = await runBin([
      'generate',
      '--from-log',
      nginx,
      apache,
      '--site',
      'https://example.com/',
      ...BASE,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Wrote 9 URLs in 1 file');
    expect(r.stdout).toContain(
      `log ${nginx}: 15 lines, 7 page visits, 6 new URLs; left out: 4 not answered 200 or 304, 1 not GET, 3 assets and non-HTML`,
    );
    expect(r.stdout).toContain(`log ${apache} (gzip): 7 lines, 4 page visits, 3 new URLs;`);
    expect(xmllint(join(out, 'sitemap.xml')).ok).toBe(true);
    const xml = readSitemapText(join(out, 'sitemap.xml'));
    expect(xml).toContain('<loc>https://example.com/products/shoes?color=red</loc>');
    expect(xml).not.toContain('utm_');
    expect(xml).not.toContain('<lastmod>');
  });

  it('standard input, gzip, with --log-lastmod last-hit; --json carries the summaries', async () => {
    const { dir } = logs();
    const gz = gzipSync(readFileSync(new URL('apache-common.log', FIXTURES)));
    const out = join(dir, 'out');
    const r = await cli(
      [
        'generate',
        '--from-log',
        '-',
        '--site',
        'https://example.com/',
        '--log-lastmod',
        'last-hit',
        ...BASE,
        '--out',
        out,
        '--json',
      ],
      gz,
    );
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.urls).toBe(3);
    expect(json.logs).toEqual([expect.objectContaining({ file: '<stdin>', gzip: true, lines: 7, urls: 3 })]);
    expect(readSitemapText(join(out, 'sitemap.xml'))).toContain(
      '<url><loc>https://example.com/docs/guide.html</loc><lastmod>2000-10-10T20:58:00Z</lastmod></url>',
    );
  });

  it.each([
    [['--from-log', 'LOG'], '--from-log needs --site URL'],
    [
      ['--site', 'https://example.com/', 'URLS'],
      '--site, --log-format, --log-lastmod and --log-…-ext go with --from-log FILE',
    ],
    [['--from-log', 'LOG', '--site', 'example.com'], '--site: site "example.com" is not an absolute URL'],
    [
      ['--from-log', 'LOG', '--site', 'https://example.com/', '--log-format', '%h "%r" %b'],
      'does not log the status',
    ],
    [
      ['--from-log', 'LOG', '--site', 'https://example.com/', '--log-lastmod', 'last-modified'],
      'does not log the Last-Modified header',
    ],
    [['--from-log', 'DIR', '--site', 'https://example.com/'], 'is a folder'],
    [
      ['-', '--input-format', 'txt', '--from-log', '-', '--site', 'https://example.com/'],
      'standard input (-) can be read once',
    ],
    [['--from-sitemap', '-'], '--from-sitemap reads sitemap files and http(s) URLs, not standard input'],
    [['--timeout', '5s', 'URLS'], '--timeout, --user-agent and --header go with --from-sitemap SOURCE'],
  ])('usage errors: %j', async (args, message) => {
    const { dir, nginx } = logs();
    mkdirSync(join(dir, 'folder'));
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'https://example.com/\n');
    const r = await cli([
      'generate',
      ...args.map((a) => ({ LOG: nginx, DIR: join(dir, 'folder'), URLS: urls })[a] ?? a),
      ...BASE,
      '--out',
      join(dir, 'out'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('a URL list, a log and an old sitemap together: a URL in several of them is written once, exit 0', async () => {
    const { dir, nginx } = logs();
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'https://EXAMPLE.com/\nhttps://example.com/only-listed\n');
    const old = join(dir, 'old.xml');
    writeFileSync(
      old,
      '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/cart</loc><lastmod>2026-01-01</lastmod></url><url><loc>https://example.com/old</loc></url><url><loc>https://example.com/only-listed</loc></url></urlset>\n',
    );
    const out = join(dir, 'out');
    const r = await cli([
      'generate',
      urls,
      '--from-sitemap',
      old,
      '--from-log',
      nginx,
      '--site',
      'https://example.com/',
      ...BASE,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const locs = [...readSitemapText(join(out, 'sitemap.xml')).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => m[1],
    );
    expect(locs).toEqual([
      'https://example.com/',
      'https://example.com/only-listed',
      // the old sitemap before the logs: /cart keeps its entry, with its lastmod
      'https://example.com/cart',
      'https://example.com/old',
      'https://example.com/products/shoes?color=red',
      'https://example.com/blog/caf%C3%A9-cr%C3%A8me',
      'https://example.com/search?q=red+shoes',
      'https://example.com/stra%C3%9Fe',
    ]);
    expect(readSitemapText(join(out, 'sitemap.xml'))).toContain(
      '<url><loc>https://example.com/cart</loc><lastmod>2026-01-01</lastmod></url>',
    );
  });

  it('a log with no page of the site says where its lines went (exit 1, nothing written)', async () => {
    const { dir, nginx } = logs();
    const r = await cli([
      'generate',
      '--from-log',
      nginx,
      '--site',
      'https://example.com/docs/',
      ...BASE,
      '--out',
      join(dir, 'out'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sitemapkit: no URLs to write');
    expect(r.stderr).toContain(
      `log ${nginx}: 15 lines, 0 page visits, 0 new URLs; left out: 4 not answered 200 or 304, 1 not GET, 3 assets and non-HTML, 7 outside --site`,
    );
  });

  it('a log in another format fails naming it and the format, and writes nothing', async () => {
    const dir = tempDir();
    const file = join(dir, 'error.log');
    writeFileSync(file, '2026/11/26 08:12:01 [error] 1234#0: *1 open() "/srv/x" failed (2: No such file)\n');
    const r = await cli([
      'generate',
      '--from-log',
      file,
      '--site',
      'https://example.com/',
      ...BASE,
      '--out',
      join(dir, 'out'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: no line is in the common or combined log format`);
    expect(r.stderr).toContain('--log-format');
  });
});
