/**
 * A server build (`output: 'server'`) with prerendered pages and pages rendered on demand, built
 * for real by Astro 5 with both plug-ins. `@astrojs/node` is not installed, so the fixture brings
 * a minimal adapter of its own (test/fixtures/astro/server/adapter: it only hands Astro's manifest
 * back); what is tested is what the plug-ins see and write, which does not depend on the adapter.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import astroSitemap from '@astrojs/sitemap';
import type { AstroIntegration } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemap } from '../../src/astro/index.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';
import { buildSite, capturing, copyFixture, type LogLine, locsOf, sitemapFiles } from './astro-site.js';

const SITE = 'https://example.com';
let site: ReturnType<typeof copyFixture>;
let theirs: string;
let ours: string;
const log: LogLine[] = [];

beforeAll(async () => {
  assertXmllint();
  site = copyFixture('server');
  const { testAdapter } = (await import(pathToFileURL(join(site.root, 'adapter/index.mjs')).href)) as {
    testAdapter: () => AstroIntegration;
  };
  const config = { site: SITE, output: 'server' as const, adapter: testAdapter() };
  theirs = join(
    await buildSite(site.root, 'dist-astrojs', { ...config, integrations: [astroSitemap()] }),
    'client',
  );
  ours = join(
    await buildSite(site.root, 'dist-sitemapkit', { ...config, integrations: [capturing(sitemap(), log)] }),
    'client',
  );
});

afterAll(() => site?.remove());

describe('a server build', () => {
  it('writes into the client folder under the same names', () => {
    expect(sitemapFiles(ours)).toEqual(['sitemap-0.xml', 'sitemap-index.xml']);
    expect(sitemapFiles(theirs)).toEqual(sitemapFiles(ours));
  });

  it('lists the prerendered pages and the on-demand page at a fixed path; the noindex page is the one difference', () => {
    const a = locsOf(theirs, sitemapFiles(theirs)).sort();
    const b = locsOf(ours, sitemapFiles(ours)).sort();
    expect(b).toEqual([`${SITE}/`, `${SITE}/account/`, `${SITE}/pricing/`]);
    expect(a.filter((u) => !b.includes(u))).toEqual([`${SITE}/about/`]);
    expect(log.map((l) => l.message)).toContain(
      `page-noindex ${SITE}/about/: left out: the page has a robots noindex meta tag (about/index.html)`,
    );
  });

  it("reads the prerendered pages' images, and every file is valid", () => {
    expect(locsOf(ours, ['sitemap-0.xml'])).toContain(`${SITE}/`);
    expect(readFileSync(join(ours, 'sitemap-0.xml'), 'utf8')).toContain(
      `<url><loc>${SITE}/</loc><image:image><image:loc>${SITE}/img/hero.jpg</image:loc></image:image></url>`,
    );
    for (const f of sitemapFiles(ours)) expect(xmllint(join(ours, f)).ok, f).toBe(true);
  });
});
