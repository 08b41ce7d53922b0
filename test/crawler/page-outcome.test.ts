// What a fetched page leads to: each URL once, never the page itself, repeats counted.
import { describe, expect, it } from 'vitest';
import type { PageResponse } from '../../src/crawler/fetch-page.js';
import { normalizeCrawlUrl } from '../../src/crawler/normalize-url.js';
import { type PageRules, pageOutcome } from '../../src/crawler/page-outcome.js';
import { readPageMeta } from '../../src/page/page-meta.js';

const PAGE = 'https://example.com/docs/page';

function answer(html: string, headers: Record<string, string> = {}): PageResponse {
  const all: Record<string, string> = { 'content-type': 'text/html', ...headers };
  return {
    ok: true,
    status: 200,
    headers: { get: (n) => all[n] ?? null, values: (n) => (all[n] === undefined ? [] : [all[n]!]) },
    contentType: all['content-type']!,
    meta: readPageMeta(html),
    bytes: html.length,
    truncated: false,
    charset: 'utf-8',
    unknownCharset: undefined,
  };
}

const rules: PageRules = {
  normalize: (raw, base) => normalizeCrawlUrl(raw, base),
  metaAgents: ['googlebot'],
  includePdf: false,
  followNofollow: false,
  maxPageBytes: 1 << 20,
  now: Date.parse('2026-07-01T00:00:00Z'),
};

describe('pageOutcome: the URLs a page leads to', () => {
  it('each URL once (repeats counted), never the page itself, alternates before links', () => {
    const html = `<title>P</title>
      <link rel="alternate" hreflang="de" href="/de/page"><link rel="alternate" hreflang="en" href="/docs/page">
      <a href="/docs/next">next</a><a href="/docs/next">next again</a><a href="next?utm_source=x">tracked</a>
      <a href="https://Other.example/x">o</a><a href="https://other.example:443/x">o</a>
      <a href="page">self</a><a href="#top">top</a><a href="/de/page">de</a>`;
    const r = pageOutcome({ id: 1, url: PAGE, depth: 2 }, answer(html), 1, 5, undefined, rules);
    expect(r.outcome.verdict).toBe('listed');
    expect(r.found).toEqual([
      { url: 'https://example.com/de/page', depth: 3, source: 'hreflang', times: 2 },
      { url: 'https://example.com/docs/next', depth: 3, source: 'link', times: 2 },
      { url: 'https://other.example/x', depth: 3, source: 'link', times: 2 },
    ]);
  });

  it('nofollow drops the links but not the alternates; a redirect leads to its target at the same depth', () => {
    const html =
      '<meta name="robots" content="nofollow"><link rel="alternate" hreflang="de" href="/de"><a href="/x">x</a>';
    const r = pageOutcome({ id: 1, url: PAGE, depth: 1 }, answer(html), 1, 5, undefined, rules);
    expect(r.found.map((f) => f.source)).toEqual(['hreflang']);
    const moved: PageResponse = {
      ok: true,
      status: 301,
      headers: { get: (n) => (n === 'location' ? '/new' : null), values: () => [] },
      contentType: '',
      meta: undefined,
      bytes: 0,
      truncated: false,
      charset: undefined,
      unknownCharset: undefined,
    };
    const m = pageOutcome({ id: 1, url: PAGE, depth: 1 }, moved, 1, 5, undefined, rules);
    expect(m.outcome).toMatchObject({ verdict: 'redirect', target: 'https://example.com/new' });
    expect(m.found).toEqual([{ url: 'https://example.com/new', depth: 1, source: 'redirect' }]);
  });
});
