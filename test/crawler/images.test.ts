import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { cli } from '../support/cli.js';
import { html, type Route, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const sites: TestServer[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

/** Five pages with the template's logo (alt="") and a badge, each with a photo of its own. */
async function shop(): Promise<TestServer> {
  const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
  const template = '<img src="/logo.svg" alt=""><img src="/badges/secure.png">';
  const names = ['a', 'b', 'c', 'd'];
  routes['/'] = html('Home', `${template}${names.map((n) => `<a href="/${n}">${n}</a>`).join('')}`);
  for (const n of names) routes[`/${n}`] = html(n, `${template}<img src="/photos/${n}.jpg">`);
  const s = await startServer(routes);
  sites.push(s);
  return s;
}

function images(xml: string): string[] {
  return [...xml.matchAll(/<image:loc>([^<]*)<\/image:loc>/g)].map((m) => m[1]!);
}

describe('crawl: which page images the sitemap lists', () => {
  it('leaves out a template image on more than half of the pages by default', async () => {
    const s = await shop();
    const dir = tempDir('sk-crawl');
    await crawl({ start: `${s.origin}/`, outDir: join(dir, 'out'), state: join(dir, 'state.db') });
    const got = images(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8'));
    expect(got.sort()).toEqual(['a', 'b', 'c', 'd'].map((n) => `${s.origin}/photos/${n}.jpg`));
  });

  it('--image-max-share 1 keeps them; --exclude-images leaves out what matches', async () => {
    const s = await shop();
    const dir = tempDir('sk-crawl');
    const out = join(dir, 'out');
    const r = await cli([
      'crawl',
      `${s.origin}/`,
      '--out',
      out,
      '--state',
      join(dir, 'state.db'),
      '--no-report',
      '--quiet',
      '--image-max-share',
      '1',
      '--exclude-images',
      '/badges/**',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = images(readFileSync(join(out, 'sitemap.xml'), 'utf8'));
    expect(got.filter((u) => u.endsWith('/logo.svg'))).toHaveLength(5);
    expect(got.some((u) => u.includes('/badges/'))).toBe(false);
    expect(got).toContain(`${s.origin}/photos/a.jpg`);
  });
});
