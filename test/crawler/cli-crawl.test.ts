import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { html, type Route, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

async function smallSite(n: number): Promise<TestServer> {
  const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
  routes['/'] = html('Home', Array.from({ length: n }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
  for (let i = 0; i < n; i++) routes[`/p${i}`] = html(`Page ${i}`, '<a href="/">home</a>');
  const s = await startServer(routes);
  servers.push(s);
  return s;
}

function paths(dir: string): string[] {
  return ['--out', join(dir, 'out'), '--state', join(dir, 'state.db'), '--report', join(dir, 'report')];
}

describe('sitemapkit crawl (in process)', () => {
  it('the summary names the HTML site map people open, sitemap.html (defect 5)', async () => {
    // More pages than fit on one page of links: sitemap-00001.html, sitemap-00002.html, sitemap.html.
    const s = await smallSite(120);
    const dir = tempDir('sk-crawl-summary');
    const r = await cli(['crawl', `${s.origin}/`, ...paths(dir)]);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'out', 'sitemap-00001.html'))).toBe(true);
    const line = r.stdout.split('\n').find((l) => l.includes('HTML site map'));
    expect(line).toBe(`  HTML site map: ${join(dir, 'out', 'sitemap.html')} (3 pages)`);
  });
});
