import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUrl, inScope, locationPrefix, slowUri, toStrictUri, toUri } from '../../src/core/url.js';
import { SPEC_DIR } from '../support/xmllint.js';

const cases = JSON.parse(readFileSync(`${SPEC_DIR}data/sitemap-location-cases.json`, 'utf8')).cases as Array<{
  sitemap: string;
  url: string;
  valid: boolean;
}>;

describe('toUri', () => {
  it('turns IRIs into URIs: percent-encoding and punycode', () => {
    expect(toUri('https://bücher.example/straße?q=ä b')).toEqual({
      ok: true,
      url: 'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4%20b',
    });
  });

  it('keeps already encoded URIs as they are', () => {
    expect(toUri('https://example.com/a%20b?x=1&y=%2F')).toEqual({
      ok: true,
      url: 'https://example.com/a%20b?x=1&y=%2F',
    });
  });

  it('refuses relative, non-http and credentialed URLs with the reason', () => {
    expect(toUri('/page')).toMatchObject({ ok: false, code: 'url-invalid' });
    expect(toUri('ftp://example.com/file')).toMatchObject({ ok: false, code: 'url-scheme' });
    expect(toUri('mailto:a@example.com')).toMatchObject({ ok: false, code: 'url-scheme' });
    expect(toUri('https://user:pw@example.com/')).toMatchObject({ ok: false, code: 'url-invalid' });
  });

  it('enforces 12 to 2,047 characters on the encoded form', () => {
    expect(toUri('http://a.i')).toMatchObject({ ok: false, code: 'url-too-short' });
    expect(toUri('http://a.io/')).toEqual({ ok: true, url: 'http://a.io/' });
    const base = 'https://example.com/';
    expect(toUri(base + 'a'.repeat(2047 - base.length)).ok).toBe(true);
    expect(toUri(base + 'a'.repeat(2048 - base.length))).toMatchObject({ ok: false, code: 'url-too-long' });
    // One non-ASCII character becomes six once encoded: the limit applies after encoding.
    expect(toUri(base + 'a'.repeat(2040 - base.length) + 'ü'.repeat(2))).toMatchObject({
      ok: false,
      code: 'url-too-long',
    });
  });

  it('the fast path agrees with WHATWG URL serialisation on any input (property)', () => {
    const chars = fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?#%[] éü\\".split(''));
    const tail = fc.array(chars, { maxLength: 30 }).map((a) => a.join(''));
    const host = fc.constantFrom(
      'example.com',
      'EXAMPLE.com',
      'a.b.c.io',
      '127.0.0.1',
      '0.0.0.0',
      '10.20.255.255',
      '256.1.1.1',
      '127.0.0.01',
      '010.0.0.1',
      '127.1',
      '1.2.3.4.5',
      '0x7f.0.0.1',
      '1.2.3.4.',
      'xn--bcher-kva.example',
      'localhost',
      'ex-ample.co.uk',
    );
    const port = fc.constantFrom('', ':80', ':443', ':8080', ':0080', ':65535', ':99999');
    const scheme = fc.constantFrom('http', 'https', 'HTTP');
    fc.assert(
      fc.property(scheme, host, port, tail, (s, h, p, t) => {
        const raw = `${s}://${h}${p}/${t}`;
        const got = toUri(raw);
        let expected: string | undefined;
        try {
          expected = new URL(raw.trim()).href;
        } catch {
          expected = undefined;
        }
        if (expected === undefined) expect(got.ok).toBe(false);
        else if (got.ok) expect(got.url).toBe(expected);
        else expect(['url-too-short', 'url-too-long', 'url-invalid']).toContain(got.code);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Every http(s) URL written in the repository's fixtures and examples (gzip fixtures unpacked). */
function fixtureUrls(): string[] {
  const found = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') walk(path);
        continue;
      }
      let bytes = readFileSync(path);
      if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
        try {
          bytes = gunzipSync(bytes, { maxOutputLength: 8 * 1024 * 1024 });
        } catch {
          continue; // a bomb or a broken stream: its URLs are not needed here
        }
      }
      for (const m of bytes.toString('utf8').matchAll(/https?:\/\/[^\s"'<>)\]]+/gi)) found.add(m[0]);
    }
  };
  for (const dir of ['../fixtures/', '../../examples/']) walk(fileURLToPath(new URL(dir, import.meta.url)));
  return [...found].sort();
}

describe('the fast path equals the WHATWG path (issue 16)', () => {
  const real = fixtureUrls();

  it('on every URL of the fixtures, plain and strict', () => {
    expect(real.length).toBeGreaterThan(300);
    for (const url of real) {
      expect(toUri(url)).toEqual(slowUri(url, false));
      expect(toStrictUri(url)).toEqual(slowUri(url, true));
    }
  });

  it("on the fixtures' URLs cut, spliced and edited anywhere (property)", () => {
    const edit = fc.constantFrom(
      ..."AZaz09-._~!$&'()*+,;=:@/?#%[] \t\\éü".split(''),
      '%2e',
      '%2E',
      '%zz',
      '..',
      'xn--',
      ':80',
      ':443',
      ':0',
      '@',
      '\u00a0',
      '\ud800',
    );
    fc.assert(
      fc.property(fc.constantFrom(...real), fc.nat(), fc.nat(3), edit, (url, at, cut, text) => {
        const i = at % (url.length + 1);
        const raw = url.slice(0, i) + text + url.slice(i + cut);
        expect(toUri(raw)).toEqual(slowUri(raw, false));
        expect(toStrictUri(raw)).toEqual(slowUri(raw, true));
      }),
      { numRuns: 5000 },
    );
  });

  it('on generated URLs (property)', () => {
    const chars = fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@/?#%[] éü\\".split(''));
    const host = fc.oneof(
      fc.constantFrom(
        'example.com',
        'xn--bcher-kva.example',
        'a.xn--x.io',
        'xn--.com',
        'x-n--a.com',
        '127.0.0.1',
        '1.2.3',
      ),
      fc
        .array(fc.constantFrom(...'abxn-.0129'.split('')), { minLength: 1, maxLength: 12 })
        .map((a) => a.join('')),
    );
    const scheme = fc.constantFrom(
      'http://',
      'https://',
      'HTTP://',
      'http:/',
      'https:',
      'httpx://',
      'htt://',
    );
    fc.assert(
      fc.property(
        scheme,
        host,
        fc.constantFrom('', ':8080', ':80', ':443', ':00'),
        fc.array(chars, { maxLength: 30 }),
        (s, h, p, t) => {
          const raw = `${s}${h}${p}/${t.join('')}`;
          expect(toUri(raw)).toEqual(slowUri(raw, false));
          expect(toStrictUri(raw)).toEqual(slowUri(raw, true));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('the location rule', () => {
  it.each(cases)('$sitemap lists $url: $valid', ({ sitemap, url, valid }) => {
    const r = checkUrl(url, { prefix: locationPrefix(sitemap, 'file') });
    expect(r.ok).toBe(valid);
    if (!valid) expect(r).toMatchObject({ code: 'url-outside-location' });
  });

  it('a folder base gains its trailing slash', () => {
    expect(locationPrefix('https://example.com/docs', 'dir')).toBe('https://example.com/docs/');
    expect(locationPrefix('https://example.com/docs/sitemap.xml?x=1', 'file')).toBe(
      'https://example.com/docs/',
    );
  });

  it('cross-submitting hosts pass, by host name or host:port', () => {
    const scope = {
      prefix: 'https://example.com/',
      allowHosts: ['shop.example.net', 'api.example.org:8443'],
    };
    expect(inScope('https://shop.example.net/any/path', scope)).toBe(true);
    expect(inScope('https://api.example.org:8443/x', scope)).toBe(true);
    expect(inScope('https://api.example.org/x', scope)).toBe(false);
    expect(inScope('https://other.example.net/', scope)).toBe(false);
  });
});
