import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileUrl, i18nLinks, isStatusPage, routeUrl, sitePrefix } from '../../src/astro/urls.js';

const P = 'https://example.com/';

describe("Astro's URL rules", () => {
  it('site and base make the prefix', () => {
    expect(sitePrefix('https://example.com', '/')).toBe(P);
    expect(sitePrefix('https://example.com', '/docs')).toBe('https://example.com/docs/');
    expect(sitePrefix('https://example.com/shop/', '/docs/')).toBe('https://example.com/docs/');
  });

  it('a built file is the URL Astro serves it at', () => {
    const ignore = { prefix: P, trailingSlash: 'ignore' } as const;
    const never = { prefix: P, trailingSlash: 'never' } as const;
    const always = { prefix: P, trailingSlash: 'always' } as const;
    expect(fileUrl('index.html', ignore)).toBe(P);
    expect(fileUrl('about/index.html', ignore)).toBe(`${P}about/`);
    expect(fileUrl('about.html', ignore)).toBe(`${P}about`);
    expect(fileUrl('about/index.html', never)).toBe(`${P}about`);
    expect(fileUrl('index.html', never)).toBe(P);
    expect(fileUrl('about.html', always)).toBe(`${P}about/`);
    expect(fileUrl('café/index.html', ignore)).toBe(`${P}caf%C3%A9/`);
    expect(routeUrl('/account', ignore, 'directory')).toBe(`${P}account/`);
    expect(routeUrl('/account', ignore, 'file')).toBe(`${P}account`);
    expect(routeUrl('/account', never, 'directory')).toBe(`${P}account`);
  });

  it('status pages, also under a locale', () => {
    for (const path of ['404', '404/', '500', 'fr/404/', 'fr/500'])
      expect(isStatusPage(P + path, P, ['en', 'fr']), path).toBe(true);
    for (const path of ['404-page/', 'blog/404/', 'de/404/', ''])
      expect(isStatusPage(P + path, P, ['en', 'fr']), path).toBe(false);
  });
});

describe('i18n groups', () => {
  const i18n = { defaultLocale: 'en', locales: { en: 'en-US', fr: 'fr-FR', de: 'de-DE' } };

  it('pairs URLs by their path without the locale prefix', () => {
    const links = i18nLinks([P, `${P}fr/`, `${P}about/`, `${P}fr/about/`, `${P}de/only/`], P, i18n);
    expect(links.get(`${P}fr/about/`)).toEqual([
      { url: `${P}about/`, lang: 'en-US' },
      { url: `${P}fr/about/`, lang: 'fr-FR' },
    ]);
    expect(links.get(P)).toEqual([
      { url: P, lang: 'en-US' },
      { url: `${P}fr/`, lang: 'fr-FR' },
    ]);
    expect(links.has(`${P}de/only/`)).toBe(false);
  });

  it('every group is reciprocal: each member lists every member, itself included', () => {
    const path = fc.constantFrom('', 'a/', 'b/', 'a/b/', 'c');
    const url = fc.tuple(fc.constantFrom('', 'fr/', 'de/', 'en/'), path).map(([l, p]) => P + l + p);
    fc.assert(
      fc.property(fc.uniqueArray(url, { maxLength: 20 }), (urls) => {
        const links = i18nLinks(urls, P, i18n);
        for (const [u, group] of links) {
          expect(group.some((l) => l.url === u)).toBe(true);
          for (const member of group) expect(links.get(member.url)).toEqual(group);
        }
      }),
    );
  });
});
