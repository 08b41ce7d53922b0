// The page verdict shared by the crawler and `validate --live`: its rules, and the two callers
// agreeing on any page (properties).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judgeCanonical } from '../../src/core/canonical.js';
import type { PageResponse } from '../../src/crawler/fetch-page.js';
import { pageOutcome } from '../../src/crawler/page-outcome.js';
import { type PageMeta, readPageMeta } from '../../src/page/page-meta.js';
import {
  canonicalFromLinkHeader,
  type PageAnswer,
  pageCanonical,
  pageVerdict,
  statusClass,
} from '../../src/page/verdict.js';
import { judgePage } from '../../src/validate/live/page-verdict.js';

const URL_ = 'https://example.com/docs/page';

function answer(status: number, headers: Record<string, string>, meta?: PageMeta): PageAnswer {
  return {
    url: URL_,
    status,
    header: (n) => headers[n] ?? null,
    xRobotsTag: headers['x-robots-tag'] === undefined ? [] : [headers['x-robots-tag']],
    meta,
    agents: ['googlebot'],
  };
}

describe('statusClass', () => {
  it('sorts every status into one class by its range; 408, 425 and 429 are transient', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), (s) => {
        const c = statusClass(s);
        if (s === 200) expect(c).toBe('ok');
        else if (s < 200) expect(c).toBe('informational');
        else if (s < 300) expect(c).toBe('success');
        else if (s < 400) expect(c).toBe('redirect');
        else if (s === 408 || s === 425 || s === 429) expect(c).toBe('transient');
        else if (s < 500) expect(c).toBe('client-error');
        else expect(c).toBe('server-error');
      }),
    );
  });
});

describe('pageVerdict', () => {
  it('only a 2xx is read as a page, and only then is its body looked at', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), (status) => {
        let reads = 0;
        const a = answer(status, { location: '/next' });
        const v = pageVerdict({
          ...a,
          get meta() {
            reads++;
            return undefined;
          },
        });
        const twoXX = status >= 200 && status < 300;
        expect(v.kind === 'answered').toBe(twoXX);
        expect(reads).toBe(twoXX ? 1 : 0);
        if (v.kind === 'answered') expect(v.ok).toBe(status === 200);
        if (v.kind === 'redirect') expect(v.location).toBe('/next');
      }),
    );
  });

  it('noindex from meta robots or X-Robots-Tag, for the agents given', () => {
    const meta = readPageMeta('<meta name="googlebot" content="noindex"><title>x</title>');
    const v = pageVerdict(answer(200, {}, meta));
    expect(v).toMatchObject({ kind: 'answered', robots: { noindex: true } });
    const h = pageVerdict(answer(200, { 'x-robots-tag': 'otherbot: noindex' }));
    expect(h).toMatchObject({ kind: 'answered', robots: { noindex: false } });
  });
});

describe('pageCanonical', () => {
  const hrefs = fc.constantFrom(
    undefined,
    '',
    '/docs/page',
    '/other',
    'other',
    'https://example.com/x#y',
    'mailto:a@b',
  );
  it('a <link rel=canonical> (against <base href>) wins over a Link header (against the page)', () => {
    fc.assert(
      fc.property(hrefs, hrefs, fc.constantFrom(undefined, '/docs/', '/elsewhere/'), (tag, header, base) => {
        const meta = { canonical: tag, baseHref: base };
        const link = header === undefined ? null : `<${header}>; rel="canonical"`;
        const expected =
          tag !== undefined
            ? judgeCanonical(tag, URL_, base)
            : judgeCanonical(canonicalFromLinkHeader(link), URL_, undefined);
        expect(pageCanonical(URL_, meta, link)).toEqual(expected);
      }),
    );
  });
});

describe('the crawler and validate --live read a page the same way', () => {
  const page = fc.record({
    metaRobots: fc.constantFrom('', 'noindex', 'none', 'nofollow', 'index, follow'),
    agentMeta: fc.constantFrom(undefined, 'noindex', 'follow'),
    xRobots: fc.constantFrom(undefined, 'noindex', 'otherbot: noindex', 'googlebot: noindex', 'noarchive'),
    canonical: fc.constantFrom(undefined, '/docs/page', '/docs/other', 'page', '../x', 'ftp://x/y', ''),
    linkHeader: fc.constantFrom(undefined, '</docs/page>; rel="canonical"', '</elsewhere>; rel=canonical'),
  });
  it('noindex for one is noindex for the other; an indexable page canonical elsewhere is so for both', () => {
    fc.assert(
      fc.property(page, (p) => {
        const head = [
          p.metaRobots === '' ? '' : `<meta name="robots" content="${p.metaRobots}">`,
          p.agentMeta === undefined ? '' : `<meta name="googlebot" content="${p.agentMeta}">`,
          p.canonical === undefined ? '' : `<link rel="canonical" href="${p.canonical}">`,
        ].join('');
        const html = `<html><head><title>T</title>${head}</head><body>x</body></html>`;
        const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
        if (p.xRobots !== undefined) headers['x-robots-tag'] = p.xRobots;
        if (p.linkHeader !== undefined) headers['link'] = p.linkHeader;
        const res: PageResponse = {
          ok: true,
          status: 200,
          headers: {
            get: (n) => headers[n] ?? null,
            values: (n) => (headers[n] === undefined ? [] : [headers[n]!]),
          },
          contentType: headers['content-type']!,
          meta: readPageMeta(html),
          bytes: html.length,
          truncated: false,
          charset: 'utf-8',
          unknownCharset: undefined,
        };
        const crawler = pageOutcome({ id: 1, url: URL_, depth: 0 }, res, 1, 1, undefined, {
          normalize: (raw, base) => new URL(raw, base).href.replace(/#.*$/, ''),
          metaAgents: ['googlebot'],
          includePdf: false,
          followNofollow: false,
          maxPageBytes: 1 << 20,
          now: Date.parse('2026-07-01T00:00:00Z'),
        }).outcome;
        const live = judgePage({ url: URL_, status: 200, headers, html }, undefined, 'googlebot').map(
          (f) => f.code,
        );
        expect(crawler.verdict === 'noindex').toBe(live.includes('live-noindex'));
        if (crawler.verdict !== 'noindex') {
          expect(crawler.verdict === 'canonicalised').toBe(live.includes('live-canonical-elsewhere'));
          expect(live.includes('canonical-ignored')).toBe(p.canonical === '' || p.canonical === 'ftp://x/y');
        }
      }),
    );
  });
});
