/**
 * Issue 11, defect 11: `validate --live` fetched URLs that robots.txt disallows. The live phase
 * now obeys robots.txt through the crawler's gate, for the chosen agent (a finding) and for its
 * own product token (politeness), and never sends a request for such a URL; `ignoreRobots` is for
 * a site you own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { type TestServer as Site, startServer } from '../support/http-server.js';
import { page, validateCli } from './helpers.js';

let site: Site;
const PATHS = ['/ok', '/private/a', '/staff/b'];

beforeAll(async () => {
  site = await startServer();
  for (const p of PATHS) site.route(p, { body: page('') });
  site.route('/sitemap.xml', {
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${PATHS.map((p) => `<url><loc>${site.origin}${p}</loc></url>`).join('\n')}\n</urlset>\n`,
  });
  // Googlebot may fetch /staff/; sitemapkit (no group of its own, so *) may not.
  site.route('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: `User-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /private/\nDisallow: /staff/\n\nSitemap: ${site.origin}/sitemap.xml\n`,
  });
});

afterAll(() => site.close());

function requested(from: number, path: string): string[] {
  return site.requests.slice(from).flatMap((r) => (r.path === path ? [r.method] : []));
}

function at(diagnostics: readonly Diagnostic[], path: string): Array<[string, string]> {
  return diagnostics
    .filter((d) => d.url === `${site.origin}${path}`)
    .map((d): [string, string] => [d.code, d.severity]);
}

describe('validate --live obeys robots.txt', () => {
  it('never requests a disallowed URL: reported once as robots-sitemap-disallowed, or skipped for its own token', async () => {
    const from = site.requests.length;
    const r = await validateSitemap(`${site.origin}/sitemap.xml`, { live: true });
    expect(requested(from, '/private/a')).toEqual([]);
    expect(requested(from, '/staff/b')).toEqual([]);
    expect(requested(from, '/ok')).toEqual(['HEAD', 'GET']);
    // The offline check already names the deciding line; the live phase does not repeat it.
    expect(at(r.diagnostics, '/private/a')).toEqual([['robots-sitemap-disallowed', 'warning']]);
    expect(at(r.diagnostics, '/staff/b')).toEqual([['live-robots-skipped', 'info']]);
    expect(r.diagnostics.find((d) => d.code === 'live-robots-skipped')?.message).toMatch(
      /^not fetched: robots\.txt line 6: .* for sitemapkit, the product token/,
    );
    expect(r.stats.statusCodes).toEqual({ '200': 1, 'robots.txt': 2 });
    // robots.txt itself was fetched once for the run: the offline check and the live gate share it.
    expect(requested(from, '/robots.txt')).toEqual(['GET']);
  });

  it('reports the disallowed URL itself when the offline robots.txt check is off', async () => {
    const from = site.requests.length;
    const r = await validateSitemap(`${site.origin}/sitemap.xml`, { live: true, robots: false });
    expect(requested(from, '/private/a')).toEqual([]);
    const d = r.diagnostics.filter((x) => x.code === 'robots-sitemap-disallowed');
    expect(d.map((x) => [x.url, x.message])).toEqual([
      [
        `${site.origin}/private/a`,
        expect.stringMatching(/is disallowed for Googlebot by robots\.txt line 2: .*; it was not fetched$/),
      ],
    ]);
  });

  it('fetches everything with ignoreRobots (a site you own)', async () => {
    const from = site.requests.length;
    const r = await validateSitemap(`${site.origin}/sitemap.xml`, {
      live: { ignoreRobots: true },
      robots: false,
    });
    for (const p of PATHS) expect(requested(from, p), p).toEqual(['HEAD', 'GET']);
    expect(r.diagnostics.filter((d) => d.code.startsWith('live-'))).toEqual([]);
    expect(r.stats.statusCodes).toEqual({ '200': 3 });
  });

  it('the CLI: --ignore-robots fetches them, and needs --live', async () => {
    const from = site.requests.length;
    const run = await validateCli([`${site.origin}/sitemap.xml`, '--live', '--ignore-robots', '--json']);
    expect(requested(from, '/private/a')).toEqual(['HEAD', 'GET']);
    expect(run.code).toBe(0);
    const without = await validateCli([`${site.origin}/sitemap.xml`, '--ignore-robots']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--ignore-robots');
  });
});
