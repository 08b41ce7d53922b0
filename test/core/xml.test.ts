import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUri } from '../../src/core/url.js';
import { escapeUri, escapeXml } from '../../src/core/xml.js';
import { manifestEntryLine } from '../../src/writer/manifest.js';

describe('escaping', () => {
  it('escapeXml escapes the five protocol characters', () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
  });

  it('escapeUri equals escapeXml on every URI toUri can produce (property)', () => {
    const chars = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#%[]\\"<>` é{}|^'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (a) => {
        const r = toUri(`https://example.com/${a.join('')}`);
        if (r.ok) expect(escapeUri(r.url)).toBe(escapeXml(r.url));
      }),
      { numRuns: 3000 },
    );
  });

  it('a manifest line is JSON for any URI, backslashes included (property)', () => {
    const chars = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/?#%\\"<> é'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), (a) => {
        const r = toUri(`https://example.com/?q=${a.join('')}`);
        if (!r.ok) return;
        const line = manifestEntryLine({ loc: r.url, hash: '0123456789abcdef' }, true);
        expect(JSON.parse(line)).toEqual({ loc: r.url, hash: '0123456789abcdef' });
      }),
      { numRuns: 2000 },
    );
  });
});

describe('whitespace that XML parsers would rewrite', () => {
  it('CR is escaped in text; tab, LF and CR in attributes', async () => {
    const { escapeAttr } = await import('../../src/core/xml.js');
    expect(escapeXml('a\r\nb\tc')).toBe('a&#13;\nb\tc');
    expect(escapeAttr('a\r\nb\tc')).toBe('a&#13;&#10;b&#9;c');
  });
});
