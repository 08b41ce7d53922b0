import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../../src/robots/index.js';

interface Case {
  id: number;
  robotstxt: string;
  robotstxt_base64?: string;
  useragent: string;
  url: string;
  allowed: boolean;
  google_specific: boolean;
  raw_url_sensitive?: boolean;
}

const spec = new URL('../fixtures/spec/', import.meta.url);
const load = (name: string): Case[] => JSON.parse(readFileSync(new URL(name, spec), 'utf8')) as Case[];
const suites = {
  'robots_test.cc': load('robots-cases.json'),
  'robotstxt-spec-test': load('robots-spec-test-cases.json'),
};

function body(c: Case): string | Uint8Array {
  return c.robotstxt_base64 === undefined
    ? c.robotstxt
    : new Uint8Array(Buffer.from(c.robotstxt_base64, 'base64'));
}

describe.each(Object.entries(suites))('%s', (_name, cases) => {
  it('has every case of the shared file', () => {
    expect(cases.length).toBe(_name === 'robots_test.cc' ? 145 : 400);
  });

  it('agrees with Google on every case in google mode', () => {
    const wrong = cases.filter((c) => parseRobotsTxt(body(c)).isAllowed(c.url, c.useragent) !== c.allowed);
    expect(wrong.map((c) => c.id)).toEqual([]);
  });

  it('agrees on every case that is neither Google-specific nor raw-URL-sensitive in rfc mode', () => {
    const portable = cases.filter((c) => !c.google_specific && c.raw_url_sensitive !== true);
    expect(portable.length).toBeGreaterThan(0);
    const wrong = portable.filter(
      (c) => parseRobotsTxt(body(c), { mode: 'rfc' }).isAllowed(c.url, c.useragent) !== c.allowed,
    );
    // The only disagreements are the stress cases that expect /robots.txt itself to be disallowed:
    // RFC 9309 §2.2.2 says "/robots.txt" is implicitly allowed, which rfc mode implements (issue 4).
    expect(wrong.map((c) => c.id)).toEqual(_name === 'robots_test.cc' ? [] : [194, 200, 204, 345]);
    for (const c of wrong) {
      expect(new URL(c.url).pathname).toBe('/robots.txt');
      expect(c.allowed).toBe(false);
      expect(parseRobotsTxt(body(c), { mode: 'rfc' }).explain(c.url, c.useragent).reason).toMatch(
        /always allowed/,
      );
    }
  });

  it('explain() gives the same verdict as isAllowed() on every case, with a line whenever a rule decided', () => {
    for (const c of cases) {
      const robots = parseRobotsTxt(body(c));
      const e = robots.explain(c.url, c.useragent);
      expect(e.allowed).toBe(c.allowed);
      if (!e.allowed) expect(e.line).toBeGreaterThan(0);
      if (e.line !== null) expect(robots.lines[e.line - 1]?.kind).toMatch(/^(allow|disallow)$/);
    }
  });

  it('is not fooled: flipping every expectation fails every case (negative control)', () => {
    const agree = cases.filter((c) => parseRobotsTxt(body(c)).isAllowed(c.url, c.useragent) === !c.allowed);
    expect(agree).toEqual([]);
  });
});
