/**
 * `sitemapkit audit URL --render` on the bundled single-page application (test/fixtures/spa) with
 * a published sitemap of its pages: read as served, every page that only the application's
 * scripts link to looks like an orphan; rendered, those pages are reached and none is an orphan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin } from '../support/cli.js';
import { type SpaServer, startSpaServer } from '../support/spa-server.mjs';

// Pages the application's router and its API links lead to (not /private: a script makes it noindex).
const LISTED = ['/', '/about', '/products', '/products/1', '/products/2', '/products/3', '/blog'];

let site: SpaServer;

beforeAll(async () => {
  // The origin is known only once the server listens: the sitemap's body is filled in then.
  const sitemap = { type: 'application/xml', body: '' };
  site = await startSpaServer({ extra: { '/sitemap.xml': sitemap } });
  sitemap.body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${LISTED.map((p) => `<url><loc>${site.origin}${p}</loc></url>`).join('')}</urlset>\n`;
});
afterAll(async () => {
  await site.close();
});

interface Finding {
  code: string;
  url: string;
}

async function auditSpa(render: boolean): Promise<Finding[]> {
  const r = await runBin([
    'audit',
    `${site.origin}/`,
    '--sitemap',
    `${site.origin}/sitemap.xml`,
    '--json',
    '--quiet',
    ...(render ? ['--render'] : []),
  ]);
  expect(r.stderr).toBe('');
  expect([0, 1]).toContain(r.code);
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}

const orphans = (findings: Finding[]): string[] =>
  findings
    .filter((f) => f.code === 'audit-orphan')
    .map((f) => new URL(f.url).pathname)
    .sort();

describe('audit --render', () => {
  it('reads the site as served without it: the pages only scripts link to look like orphans', async () => {
    expect(orphans(await auditSpa(false))).toEqual(LISTED.filter((p) => p !== '/').sort());
  });

  it('renders the pages with it: every listed page is reached, none is an orphan', async () => {
    expect(orphans(await auditSpa(true))).toEqual([]);
  });

  it('refuses the rendering flags without --render, as crawl does', async () => {
    const r = await runBin(['audit', `${site.origin}/`, '--render-concurrency', '3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--render-concurrency needs --render');
  });
});
