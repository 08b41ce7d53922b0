import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/audit/run.js';
import type { TestServer } from '../support/http-server.js';
import { HEALTHY, PLANTED, startPlantedSite } from './planted-site.js';

let site: TestServer;
beforeAll(async () => {
  site = await startPlantedSite();
});
afterAll(async () => {
  await site.close();
});

describe('audit() over a loopback site with planted problems', () => {
  it('reports every planted problem with its code and page, and flags no healthy page', async () => {
    const r = await audit({ start: site.url, crawl: { retryBaseMs: 1, retries: 0 } });
    const got = r.findings.map((f) => [f.code, new URL(f.url).pathname]);
    expect(got.sort()).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
    for (const path of HEALTHY)
      expect(r.findings.filter((f) => new URL(f.url).pathname === path)).toEqual([]);
    const by = (code: string) => r.findings.find((f) => f.code === code)!;
    expect(by('audit-listed-redirect').target).toBe(`${site.origin}/b`);
    expect(by('audit-listed-canonicalised').target).toBe(`${site.origin}/a`);
    expect(by('audit-listed-broken').status).toBe(404);
    expect(by('audit-orphan').status).toBe(200);
    expect(by('audit-orphan').sitemap).toBe(`${site.origin}/sitemap.xml`);
    expect(r.sitemaps).toEqual([`${site.origin}/sitemap.xml`]);
    expect(r.counts.error).toBe(6);
    expect(r.counts.responseMs.p50).not.toBeNull();
  });

  it('with robots.txt ignored (robots: false) still reports the disallowed URL the crawl fetched', async () => {
    const r = await audit({ start: site.url, crawl: { retryBaseMs: 1, retries: 0, robots: false } });
    const got = r.findings.map((f) => [f.code, new URL(f.url).pathname]);
    expect(got.sort()).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
  });
});
