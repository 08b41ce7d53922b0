// The two transports (undici's pool by default, an injected fetch) must crawl a site to the same
// outcome: a differential test over a site with redirects, non-HTML, charsets, a size cap and
// chunked bodies, against a real server on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import type { FetchLike } from '../../src/robots/fetch.js';
import { html, type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

function rows(dir: string): Array<Record<string, unknown>> {
  return readFileSync(join(dir, 'report', 'urls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .map(({ ms: _ms, ...rest }) => rest);
}

describe('transports', () => {
  it('undici pool and an injected fetch give the same state, sitemap and report', async () => {
    const latin = Buffer.from(
      '<html><head><title>Caf\xe9</title></head><body><a href="/x">x</a></body></html>',
      'latin1',
    );
    const s = await startServer({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': html(
        'Home',
        '<a href="/old">o</a><a href="/latin">l</a><a href="/pdf">p</a><a href="/big">b</a><a href="/chunked">c</a><a href="/gone">g</a>',
      ),
      '/old': { status: 301, headers: { location: '/x' } },
      '/x': html('X', '<img src="/i.png" srcset="/i2.png 2x">'),
      '/latin': { headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body: latin },
      '/pdf': { headers: { 'content-type': 'application/pdf' }, body: Buffer.alloc(200_000, 1) },
      '/big': html('Big', `${'<p>filler</p>'.repeat(20_000)}<a href="/after-cap">a</a>`),
      '/chunked': (_req, res) => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        const page = '<title>Ch\u00e9 \u{1F600}</title><a href="/x">x</a>';
        const bytes = Buffer.from(page);
        // Byte by byte, splitting multi-byte characters across writes.
        let i = 0;
        const next = (): void => {
          if (i >= bytes.length) {
            res.end();
            return;
          }
          res.write(bytes.subarray(i, i + 1));
          i++;
          setImmediate(next);
        };
        next();
      },
    });
    sites.push(s);
    const run = async (fetch: FetchLike | undefined): Promise<string> => {
      const dir = tempDir('sk-crawl-transport');
      await crawl({
        start: `${s.origin}/`,
        outDir: join(dir, 'out'),
        state: join(dir, 'state.db'),
        report: join(dir, 'report'),
        maxPageBytes: 100_000,
        ...(fetch === undefined ? {} : { fetch }),
      });
      return dir;
    };
    const pool = await run(undefined);
    const viaFetch = await run(globalThis.fetch as FetchLike);
    const a = rows(pool);
    expect(a).toEqual(rows(viaFetch));
    expect(readFileSync(join(pool, 'out', 'sitemap.xml'), 'utf8')).toBe(
      readFileSync(join(viaFetch, 'out', 'sitemap.xml'), 'utf8'),
    );
    const by = new Map(a.map((r) => [r['url'], r]));
    expect(by.get(`${s.origin}/latin`)?.['title']).toBe('Café');
    expect(by.get(`${s.origin}/chunked`)?.['title']).toBe('Ch\u00e9 \u{1F600}');
    expect(by.get(`${s.origin}/pdf`)?.['verdict']).toBe('non-html');
    expect(by.get(`${s.origin}/old`)?.['verdict']).toBe('redirect');
    expect(by.get(`${s.origin}/big`)?.['bytes']).toBe(100_000);
    expect(by.has(`${s.origin}/after-cap`)).toBe(false);
  });
});
