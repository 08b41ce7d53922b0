/**
 * `sitemapkit serve DIR`: the built CLI serving a folder `writeSitemaps` wrote, requested over
 * 127.0.0.1: the files exactly as on disk, validators and 304, HEAD, gzip and Brotli, the `.html`
 * view of every sitemap, 404s, and Ctrl-C ending it with exit code 130.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { BIN, runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { BASE, entry, get } from './fixtures.js';

let dir: string;
let child: ChildProcess;
let origin: string;
let stderr = '';

beforeAll(async () => {
  dir = tempDir('sk-serve');
  await writeSitemaps(
    Array.from({ length: 5 }, (_, i) => entry(i)),
    { baseUrl: BASE, outDir: dir, maxUrlsPerFile: 2, xsl: true },
  );
  child = spawn(process.execPath, [BIN, 'serve', dir, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  origin = (JSON.parse(String(line)) as { url: string }).url.replace(/\/$/, '');
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('sitemapkit serve', () => {
  it('sends every file exactly as written, with validators, 304 and HEAD', async () => {
    for (const name of ['sitemap.xml', 'sitemap-00001.xml', 'sitemap-00003.xml', 'sitemap.xsl']) {
      const r = await get(origin, `/${name}`);
      expect(r.status, name).toBe(200);
      expect(r.raw.equals(readFileSync(join(dir, name))), name).toBe(true);
    }
    const first = await get(origin, '/sitemap.xml');
    expect(first.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect((await get(origin, '/sitemap.xml', { 'if-none-match': first.headers['etag']! })).status).toBe(304);
    const head = await get(origin, '/sitemap.xml', {}, 'HEAD');
    expect([head.status, head.raw.length, head.headers['content-length']]).toEqual([
      200,
      0,
      first.headers['content-length'],
    ]);
  });

  it('compresses by Accept-Encoding, and never changes the XML for a browser', async () => {
    const file = readFileSync(join(dir, 'sitemap-00002.xml'), 'utf8');
    const gz = await get(origin, '/sitemap-00002.xml', { 'accept-encoding': 'gzip' });
    const br = await get(origin, '/sitemap-00002.xml', { 'accept-encoding': 'br, gzip' });
    const browser = await get(origin, '/sitemap-00002.xml', { accept: 'text/html,application/xhtml+xml' });
    expect([gz.headers['content-encoding'], br.headers['content-encoding']]).toEqual(['gzip', 'br']);
    expect([gz.text, br.text, browser.text]).toEqual([file, file, file]);
    expect(browser.headers['vary']).toBe('Accept-Encoding');
    const refused = await get(origin, '/sitemap-00002.xml', { 'accept-encoding': 'identity;q=0' });
    expect([refused.status, refused.text]).toEqual([
      406,
      'Accept-Encoding "identity;q=0" refuses every coding this server sends (br, gzip, identity): accept one of them\n',
    ]);
  });

  it('renders NAME.html from NAME.xml: the index lists its children, a child its URLs', async () => {
    const index = await get(origin, '/sitemap.html');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.text).toContain('href="sitemap-00003.html"');
    const child = await get(origin, '/sitemap-00002.html');
    expect(child.text).toContain(`<a href="${BASE}page-2">${BASE}page-2</a>`);
    expect(child.text).toContain('href="sitemap-00002.xml"');
  });

  it('answers 404 outside the folder and for missing files, 405 for other methods', async () => {
    expect((await get(origin, '/nothing.xml')).status).toBe(404);
    expect((await get(origin, '/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    const r = await fetch(`${origin}/sitemap.xml`, { method: 'DELETE' });
    expect(r.status).toBe(405);
  });

  it('stops on Ctrl-C with exit code 130', async () => {
    child.kill('SIGINT');
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(130);
    expect(stderr).toBe('');
  });

  it('serves a gzipped set as stored, and its views link to the .xml.gz files', async () => {
    const gz = tempDir('sk-serve-gz');
    await writeSitemaps(
      Array.from({ length: 5 }, (_, i) => entry(i)),
      { baseUrl: BASE, outDir: gz, maxUrlsPerFile: 2, gzip: true },
    );
    const other = spawn(process.execPath, [BIN, 'serve', gz, '--port', '0', '--json'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const [line] = (await once(other.stdout!, 'data')) as [Buffer];
      const at = (JSON.parse(String(line)) as { url: string }).url.replace(/\/$/, '');
      const file = await get(at, '/sitemap-00001.xml.gz', { 'accept-encoding': 'gzip' });
      expect(file.headers['content-type']).toBe('application/gzip');
      expect(file.headers['content-encoding']).toBeUndefined();
      expect(file.raw.equals(readFileSync(join(gz, 'sitemap-00001.xml.gz')))).toBe(true);
      const index = await get(at, '/sitemap.html');
      expect(index.text).toContain(
        '<a href="sitemap-00002.html">sitemap-00002</a></td><td><a href="sitemap-00002.xml.gz">',
      );
      const child = await get(at, '/sitemap-00002.html');
      expect(child.text).toContain(`<a href="${BASE}page-3">`);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('refuses a folder that does not exist in one line, exit 2', async () => {
    const r = await runBin(['serve', join(dir, 'missing')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
    expect(r.stderr).toContain('missing');
  });
});
