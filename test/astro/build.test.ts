/**
 * The integration against the real Astro 5 and the plug-in it replaces: the fixture site (two
 * locales, pages with images, a `noindex` page, a draft left out by `filter`, a 404 page, an
 * endpoint, a page copied from public/) is built twice with the same options, once with
 * `@astrojs/sitemap` and once with `sitemapkit/astro`; only the import differs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import astroSitemap from '@astrojs/sitemap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemap } from '../../src/astro/index.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';
import { buildSite, capturing, copyFixture, type LogLine, locsOf, sitemapFiles } from './astro-site.js';

const SITE = 'https://example.com';
// The options exactly as an @astrojs/sitemap user writes them.
const options = {
  filter: (page: string) => !page.includes('/drafts/'),
  i18n: { defaultLocale: 'en', locales: { en: 'en-US', fr: 'fr-FR' } },
};
const config = { site: SITE, i18n: { defaultLocale: 'en', locales: ['en', 'fr'] } };

let site: ReturnType<typeof copyFixture>;
let theirs: string;
let ours: string;
const log: LogLine[] = [];

beforeAll(async () => {
  assertXmllint();
  site = copyFixture('site');
  theirs = await buildSite(site.root, 'dist-astrojs', { ...config, integrations: [astroSitemap(options)] });
  ours = await buildSite(site.root, 'dist-sitemapkit', {
    ...config,
    integrations: [capturing(sitemap(options), log)],
  });
});

afterAll(() => site?.remove());

const url = (path: string): string => `${SITE}${path}`;
const text = (dir: string, file: string): string => readFileSync(join(dir, file), 'utf8');
/** The `<url>` element of `loc` in the urlsets of `dir`. */
function urlElement(dir: string, loc: string): string {
  for (const f of sitemapFiles(dir)) {
    const m = new RegExp(`<url><loc>${loc.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}</loc>.*?</url>`).exec(
      text(dir, f),
    );
    if (m !== null) return m[0];
  }
  throw new Error(`${loc} is in no sitemap of ${dir}`);
}

describe('sitemapkit/astro against @astrojs/sitemap on one Astro build', () => {
  it('keeps the file names of @astrojs/sitemap', () => {
    expect(sitemapFiles(theirs)).toEqual(['sitemap-0.xml', 'sitemap-index.xml']);
    expect(sitemapFiles(ours)).toEqual(sitemapFiles(theirs));
  });

  it('lists what @astrojs/sitemap lists, minus only the noindex page, said in the log by name', () => {
    const a = new Set(locsOf(theirs, sitemapFiles(theirs)));
    const b = new Set(locsOf(ours, sitemapFiles(ours)));
    expect([...a].filter((u) => !b.has(u))).toEqual([url('/secret/')]);
    expect([...b].filter((u) => !a.has(u))).toEqual([]);
    expect(log).toContainEqual({
      level: 'info',
      message: `page-noindex ${url('/secret/')}: left out: the page has a robots noindex meta tag (secret/index.html)`,
    });
    // Neither lists the draft (filter), the 404 page, the endpoint or the file copied from public/.
    for (const u of ['/drafts/wip/', '/404/', '/404.html', '/feed.xml', '/google1234.html', '/google1234'])
      expect(b.has(url(u)) || a.has(url(u)), u).toBe(false);
    expect(b.size).toBe(9);
  });

  it("adds the pages' images, which @astrojs/sitemap does not write, without the logo every page shows", () => {
    const about = urlElement(ours, url('/about/'));
    for (const img of ['/img/team.jpg', '/img/office-1x.jpg', '/img/office-2x.jpg'])
      expect(about).toContain(`<image:loc>${url(img)}</image:loc>`);
    expect(
      sitemapFiles(ours)
        .map((f) => text(ours, f))
        .join(''),
    ).not.toContain('logo.png');
    expect(
      sitemapFiles(theirs)
        .map((f) => text(theirs, f))
        .join(''),
    ).not.toContain('<image:image>');
  });

  it('writes the i18n alternates as @astrojs/sitemap does, and the hreflang links of pages whose slugs differ', () => {
    const link = (lang: string, path: string): string =>
      `<xhtml:link rel="alternate" hreflang="${lang}" href="${url(path)}"/>`;
    for (const dir of [theirs, ours]) {
      const about = urlElement(dir, url('/fr/about/'));
      expect(about).toContain(link('en-US', '/about/'));
      expect(about).toContain(link('fr-FR', '/fr/about/'));
    }
    // /contact/ and /fr/contactez-nous/ pair only through their hreflang links.
    const contact = urlElement(ours, url('/contact/'));
    expect(contact).toContain(link('en', '/contact/'));
    expect(contact).toContain(link('fr', '/fr/contactez-nous/'));
    expect(urlElement(ours, url('/fr/contactez-nous/'))).toContain(link('en', '/contact/'));
    expect(urlElement(theirs, url('/contact/'))).not.toContain('xhtml:link');
  });

  it('every file is valid against the XSDs', () => {
    for (const f of sitemapFiles(ours)) {
      const r = xmllint(join(ours, f));
      expect(r.ok, `${f}: ${r.output}`).toBe(true);
    }
  });

  it('adds the Sitemap: line to the robots.txt of the build, and leaves no manifest or temp file in the site', () => {
    expect(text(ours, 'robots.txt')).toBe(
      `User-agent: *\nAllow: /\n\nSitemap: ${url('/sitemap-index.xml')}\n`,
    );
    expect(text(theirs, 'robots.txt')).toBe('User-agent: *\nAllow: /\n');
    expect(existsSync(join(ours, '.sitemapkit-manifest.json'))).toBe(false);
    expect(readdirSync(ours).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it("gives Astro's log a summary of what was written", () => {
    expect(log.map((l) => l.message)).toContain(
      'sitemap-index.xml and 1 sitemap written: 9 URLs; 1 left out by filter; robots.txt names sitemap-index.xml',
    );
    expect(log.filter((l) => l.level !== 'info')).toEqual([]);
  });
});
