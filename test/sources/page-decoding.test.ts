import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { readStaticSite } from '../../src/sources/index.js';
import { type Route, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { all } from './helpers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Pages whose bytes only decode right by their BOM or their <meta charset>. */
const PAGES: Record<string, Buffer> = {
  'cp1252.html': Buffer.concat([
    Buffer.from('<html><head><meta charset="windows-1252"><title>Größe ', 'latin1'),
    Buffer.from([0x96]),
    Buffer.from(' Übersicht</title></head><body></body></html>', 'latin1'),
  ]),
  'utf16.html': Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('<html><head><title>Größe UTF-16</title></head><body></body></html>', 'utf16le'),
  ]),
  'http-equiv.html': Buffer.from(
    '<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><title>Straße</title></head></html>',
    'latin1',
  ),
};
const TITLES = ['Größe – Übersicht', 'Größe UTF-16', 'Straße'];

describe('one page decoder for --from-dir and the crawler', () => {
  it('reads the same titles from the same bytes, from a folder and over HTTP', async () => {
    const dir = tempDir();
    for (const [name, bytes] of Object.entries(PAGES)) writeFileSync(join(dir, name), bytes);
    const fromDir = await all(readStaticSite({ dir, baseUrl: 'https://example.com/', lastmod: 'none' }));
    const byName = (name: string) => fromDir.find((r) => String(r['loc']).endsWith(name))?.['title'];
    expect(Object.keys(PAGES).map(byName)).toEqual(TITLES);

    // Served as text/html without a charset, as static file servers often do.
    const routes: Record<string, Route> = {
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': {
        headers: { 'content-type': 'text/html' },
        body: `<title>Home</title>${Object.keys(PAGES)
          .map((n) => `<a href="/${n}">${n}</a>`)
          .join('')}`,
      },
    };
    for (const [name, bytes] of Object.entries(PAGES))
      routes[`/${name}`] = { headers: { 'content-type': 'text/html' }, body: bytes };
    const s = await startServer(routes);
    servers.push(s);
    const out = join(tempDir(), 'out');
    await crawl({
      start: `${s.origin}/`,
      outDir: out,
      state: join(out, '..', 'state.db'),
      sitemaps: { html: true },
    });
    const page = readFileSync(join(out, 'sitemap.html'), 'utf8');
    for (const t of TITLES) expect(page).toContain(`>${t}</a>`);
    expect(page).not.toContain('\uFFFD');
  });
});
