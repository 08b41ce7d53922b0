/** `render: 'auto'`'s pure rules: what looks like an application shell, URL templates, sampling. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AutoRender, looksLikeShell, TEMPLATE_SAMPLE, urlTemplate } from '../../src/crawler/render-auto.js';

const STATIC = `<!doctype html><title>Chapter</title><script src="/search.js"></script><h1>Chapter</h1><p>${'Plain words for people. '.repeat(20)}</p><a href="/b">b</a>`;

describe('looksLikeShell', () => {
  it('is an empty mount point with scripts', () => {
    for (const mount of [
      '<div id="root"></div>',
      '<div id="app"></div>',
      '<div id="__next"></div>',
      '<app-root></app-root>',
    ]) {
      expect(
        looksLikeShell(`<!doctype html><title>A</title><script src="/a.js"></script>${mount}`),
        mount,
      ).toBe(true);
    }
  });

  it('is not a page with text, nor one without scripts, nor one without a mount point', () => {
    expect(looksLikeShell(`${STATIC}<div id="root"></div><script src="/a.js"></script>`)).toBe(false);
    expect(looksLikeShell('<title>A</title><div id="root"></div>')).toBe(false);
    expect(looksLikeShell('<title>A</title><div id="content"></div><script src="/a.js"></script>')).toBe(
      false,
    );
  });

  it('does not count script, style or template text as text', () => {
    const big = 'x'.repeat(5000);
    expect(
      looksLikeShell(
        `<div id="root"></div><script>var s = "${big}";</script><style>.a{content:"${big}"}</style>`,
      ),
    ).toBe(true);
  });
});

describe('urlTemplate', () => {
  it('replaces segments with digits and the last segment', () => {
    expect(urlTemplate('https://e.com/blog/2024/hello')).toBe('e.com/blog/*/*');
    expect(urlTemplate('https://e.com/docs/sql-select.html')).toBe('e.com/docs/*');
    expect(urlTemplate('https://e.com/about')).toBe('e.com/*');
    expect(urlTemplate('https://e.com/docs/')).toBe('e.com/docs/');
    expect(urlTemplate('https://e.com/')).toBe('e.com/');
    expect(urlTemplate('https://e.com/p?id=3&lang=de')).toBe('e.com/*?id&lang');
  });
});

describe('AutoRender', () => {
  it('renders every shell, and at most TEMPLATE_SAMPLE other pages of a template that gains nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ n: fc.nat(50), shell: fc.boolean(), dir: fc.constantFrom('a', 'b', 'c') }), {
          maxLength: 60,
        }),
        (pages) => {
          const auto = new AutoRender();
          const rendered = new Map<string, number>();
          for (const p of pages) {
            const url = `https://e.com/${p.dir}/page-${p.n}`;
            const html = p.shell ? '<div id="root"></div><script src="/a.js"></script>' : STATIC;
            const wants = auto.wants(url, html);
            if (p.shell) expect(wants).toBe(true);
            else if (wants) rendered.set(p.dir, (rendered.get(p.dir) ?? 0) + 1);
            if (wants) auto.learn(url, false);
          }
          for (const n of rendered.values()) expect(n).toBeLessThanOrEqual(TEMPLATE_SAMPLE);
        },
      ),
    );
  });

  it('never renders a page without a script', () => {
    const auto = new AutoRender();
    for (let i = 0; i < 10; i++)
      expect(auto.wants(`https://e.com/d/${i}`, '<title>A</title><p>text</p>')).toBe(false);
  });

  it('keeps rendering a template where rendering found more', () => {
    const auto = new AutoRender();
    expect(auto.wants('https://e.com/p/1', STATIC)).toBe(true);
    auto.learn('https://e.com/p/1', true);
    for (let i = 2; i < 20; i++) expect(auto.wants(`https://e.com/p/${i}`, STATIC)).toBe(true);
  });
});
