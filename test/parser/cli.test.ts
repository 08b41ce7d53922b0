import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { body, slow, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { ensureBuilt } from './build.js';
import { indexOf, SAMPLES, urlset, urlsetOf } from './helpers.js';

const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function file(content: string, name = 'sitemap.xml'): string {
  const path = join(tempDir('sk-parse'), name);
  writeFileSync(path, content);
  return path;
}

describe('sitemapkit parse', () => {
  it('prints JSON lines in the entry model plus "sitemap"', async () => {
    const path = join(SAMPLES, 'valid/basic.xml');
    const r = await cli(['parse', path]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toEqual({
      loc: 'http://www.example.com/',
      lastmod: '2005-01-01',
      changefreq: 'monthly',
      priority: 0.8,
      sitemap: path,
    });
    expect(Object.keys(lines[0]!).at(-1)).toBe('sitemap');
    expect((await cli(['parse', path, '--json'])).stdout).toBe(r.stdout);
  });

  it('prints index children as references when not recursive', async () => {
    const r = await cli(['parse', join(SAMPLES, 'valid/index.xml')]);
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({
      kind: 'sitemap',
      loc: 'http://www.example.com/sitemap1.xml.gz',
    });
  });

  it('prints CSV with a header and quoting, and plain text', async () => {
    const path = file(
      urlset(
        '<url><loc>https://example.com/a,b</loc><lastmod>2024-01-01</lastmod><image:image><image:loc>https://example.com/i.png</image:loc></image:image></url>',
      ),
    );
    const csv = await cli(['parse', path, '--format', 'csv']);
    expect(csv.stdout).toBe(
      `loc,lastmod,changefreq,priority,images,videos,news,alternates,mobile,kind,sitemap\n"https://example.com/a,b",2024-01-01,,,1,,,,,page,${path}\n`,
    );
    const txt = await cli(['parse', path, '--format', 'txt']);
    expect(txt.stdout).toBe('https://example.com/a,b\n');
  });

  it('prints diagnostics on stderr with file, line and column, and exits 1 on an error', async () => {
    const path = file(
      urlset('<url><loc>https://example.com/a</loc></url>\n<url><lastmod>2024-01-01</lastmod></url>'),
    );
    const r = await cli(['parse', path, '--format', 'txt']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('https://example.com/a\n');
    expect(r.stderr).toContain(`${path}:4:1: error loc-missing: <url> has no <loc>; entry dropped Fix:`);
  });

  it('--sitemap-url applies the location rule to a local file', async () => {
    const path = file(
      urlset(
        '<url><loc>https://example.com/shop/a</loc></url><url><loc>https://example.com/blog/b</loc></url>',
      ),
    );
    expect((await cli(['parse', path])).code).toBe(0);
    const r = await cli([
      'parse',
      path,
      '--sitemap-url',
      'https://example.com/shop/sitemap.xml',
      '--format',
      'txt',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(
      /error url-outside-location \(loc\): "https:\/\/example.com\/blog\/b" is outside https:\/\/example.com\/shop\//,
    );
  });

  it('--stats prints counts per sitemap and a lastmod histogram, as text or JSON', async () => {
    const path = file(
      urlset(
        '<url><loc>https://example.com/a</loc><lastmod>2023-05-01</lastmod></url><url><loc>https://example.com/b</loc><lastmod>2024-01-01</lastmod></url><url><loc>https://example.com/c</loc></url>',
      ),
    );
    const text = await cli(['parse', path, '--stats']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/urlset\s+3\s+0\s+\d+\s+no\s+0\s+0/);
    expect(text.stdout).toContain('1 sitemap(s): urlset 1; 3 entries');
    expect(text.stdout).toMatch(/2023\s+1\s+#+\n\s+2024\s+1\s+#+\n\s+none\s+1/);
    const json = JSON.parse((await cli(['parse', path, '--stats', '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({
      formats: { urlset: 1 },
      entries: 3,
      lastmodByYear: { 2023: 1, 2024: 1, none: 1 },
      errors: 0,
    });
  });

  it('reads standard input', async () => {
    const r = await cli(['parse', '-', '--format', 'txt'], 'https://example.com/a\nhttps://example.com/b\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('https://example.com/a\nhttps://example.com/b\n');
  });

  it('--max-bytes caps what is read', async () => {
    const path = file(
      urlset(
        Array.from({ length: 100 }, (_, i) => `<url><loc>https://example.com/${i}</loc></url>`).join('\n'),
      ),
    );
    const r = await cli(['parse', path, '--max-bytes', '2000', '--format', 'txt']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error sitemap-too-large');
    expect(r.stdout.split('\n').length).toBeLessThan(60);
  });

  it.each([
    [['parse'], /missing required argument/],
    [['parse', 'x.xml', '--format', 'yaml'], /invalid/],
    [['parse', 'x.xml', '--max-bytes', 'lots'], /--max-bytes needs a whole number/],
    [['parse', 'x.xml', '--timeout', 'fast'], /--timeout must be a duration such as 500ms, 30s or 2m/],
    [['parse', 'x.xml', '--timeout', '0ms'], /--timeout must be at least 1 ms/],
    [
      ['parse', 'https://example.com/s.xml', '--sitemap-url', 'https://example.com/s.xml'],
      /--sitemap-url is for a local file/,
    ],
    [['parse', 'x.xml', '--sitemap-url', 'example.com'], /--sitemap-url needs an http\(s\) URL/],
    [['parse', 'x.xml', '--discover'], /--discover needs the http\(s\) URL/],
    [['parse', 'x.xml', '--header', 'no colon'], /--header needs NAME:VALUE/],
    [['parse', '/no/such/sitemap.xml'], /no such file \[ERR_INPUT\]/],
  ])('exits 2 for %j', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('--help shows usage, formats and exit codes', async () => {
    const r = await cli(['parse', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--recursive');
    expect(r.stdout).toContain('Exit codes: 0 everything parsed');
  });
});

describe('sitemapkit parse over HTTP', () => {
  it('--timeout reads a duration with a unit, and a bare number as milliseconds', async () => {
    const s = await startServer({}, { keepAlive: false });
    servers.push(s);
    s.route('/slow.xml', slow(10_000, body(urlsetOf([`${s.origin}/1`]))));
    s.route('/fast.xml', body(urlsetOf([`${s.origin}/1`])));
    for (const t of ['0.3s', '300']) {
      const r = await cli(['parse', `${s.origin}/slow.xml`, '--timeout', t]);
      expect(r.code, t).toBe(2);
      expect(r.stderr, t).toContain('/slow.xml: no answer within 300 ms [ERR_HTTP]');
    }
    const ok = await cli(['parse', `${s.origin}/fast.xml`, '--timeout', '2m', '--format', 'txt']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`${s.origin}/1\n`);
  });

  it("--recursive follows the index, sends --header and --user-agent, names each entry's sitemap", async () => {
    const s = await startServer({}, { keepAlive: false });
    servers.push(s);
    const o = s.origin;
    s.route('/index.xml', body(indexOf([`${o}/a.xml`, `${o}/missing.xml`])));
    s.route('/a.xml', body(urlsetOf([`${o}/1`, `${o}/2`])));
    const r = await cli([
      'parse',
      `${o}/index.xml`,
      '--recursive',
      '--header',
      'Authorization: Bearer t',
      '--user-agent',
      'Bot/2',
    ]);
    expect(r.code).toBe(1);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { loc: `${o}/1`, sitemap: `${o}/a.xml` },
      { loc: `${o}/2`, sitemap: `${o}/a.xml` },
    ]);
    expect(r.stderr).toContain(`${o}/missing.xml: error fetch-status: HTTP 404`);
    for (const q of s.requests) {
      expect(q.headers['authorization']).toBe('Bearer t');
      expect(q.headers['user-agent']).toBe('Bot/2');
    }
  });

  /** A site whose robots.txt names an index of one sitemap of one URL. */
  async function treeSite(): Promise<string> {
    const s = await startServer({}, { keepAlive: false });
    servers.push(s);
    const o = s.origin;
    s.route('/robots.txt', body(`Sitemap: ${o}/index.xml\n`, { 'content-type': 'text/plain' }));
    s.route('/index.xml', body(indexOf([`${o}/a.xml`])));
    s.route('/a.xml', body(urlsetOf([`${o}/1`])));
    return o;
  }

  it('--discover --recursive finds the sitemaps of a site and reads them', async () => {
    const o = await treeSite();
    const r = await cli(['parse', o, '--discover', '--recursive', '--format', 'txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${o}/1\n`);
    expect(r.stderr).toContain(`found ${o}/index.xml (robots)`);
  });

  it('follows the children of a fetched index and of discovered sitemaps by default, as validate does (issue 11)', async () => {
    const o = await treeSite();
    const url = await cli(['parse', `${o}/index.xml`, '--format', 'txt']);
    expect([url.code, url.stdout]).toEqual([0, `${o}/1\n`]);
    const discovered = await cli(['parse', o, '--discover', '--format', 'txt']);
    expect([discovered.code, discovered.stdout]).toEqual([0, `${o}/1\n`]);
    // --no-recursive reads the index alone; a local index is read alone unless -r asks to fetch.
    const alone = await cli(['parse', `${o}/index.xml`, '--no-recursive', '--format', 'txt']);
    expect([alone.code, alone.stdout]).toEqual([0, `${o}/a.xml\n`]);
    const local = file(indexOf([`${o}/a.xml`]), 'index.xml');
    expect((await cli(['parse', local, '--format', 'txt'])).stdout).toBe(`${o}/a.xml\n`);
    expect((await cli(['parse', local, '-r', '--format', 'txt'])).stdout).toBe(`${o}/1\n`);
  });

  // --discover alone now reads trees (issue 11): --no-recursive keeps what this test checks.
  it('--discover --no-recursive: a listed sitemap that is gone is a finding, the others are read', async () => {
    const s = await startServer({}, { keepAlive: false });
    servers.push(s);
    const o = s.origin;
    s.route(
      '/robots.txt',
      body(`Sitemap: ${o}/gone.xml\nSitemap: ${o}/index.xml\n`, { 'content-type': 'text/plain' }),
    );
    s.route('/index.xml', body(indexOf([`${o}/a.xml`])));
    const r = await cli(['parse', o, '--discover', '--no-recursive']);
    expect(r.code).toBe(1);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ kind: 'sitemap', loc: `${o}/a.xml`, sitemap: `${o}/index.xml` }]);
    expect(r.stderr).toContain(`${o}/gone.xml: error fetch-status: HTTP 404`);
  });

  it('exits 2 when the sitemap cannot be fetched at all', async () => {
    const s = await startServer({}, { keepAlive: false });
    servers.push(s);
    const r = await cli(['parse', `${s.origin}/nope.xml`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('HTTP 404');
  });
});

describe('the built binary', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('flushes all of a large output through a pipe before exiting', async () => {
    const out = await new Promise<{ code: number | null; lines: number }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [BIN, 'parse', join(SAMPLES, 'hostile/50001-urls.xml.gz'), '--format', 'txt'],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      let lines = 0;
      child.stdout.on('data', (d: Buffer) => {
        for (const b of d) if (b === 10) lines++;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, lines }));
    });
    expect(out).toEqual({ code: 1, lines: 50_001 });
  });
});
