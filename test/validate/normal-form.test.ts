// Issue 11, defect 15: validate reports locs that are not written in their normal form.
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/http/types.js';
import { RULES } from '../../src/validate/rules.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { NOW, urls, urlset } from './helpers.js';

const NO_NETWORK: FetchLike = async (url) => {
  throw new Error(`the network was used for ${url}`);
};

describe('url-not-normal', () => {
  it('names the loc as written, why, and its normal form; normal locs pass silently', async () => {
    const r = await validateSitemap(
      {
        text: urlset(
          urls([
            'http://example.com',
            'https://example.com/a b',
            'https://bücher.example/ä',
            'HTTPS://Example.COM/x',
            'https://example.com:443/y',
            'https://example.com/a/../z',
            'https://example.com/normal?q=1',
          ]),
        ),
      },
      { now: () => NOW, fetch: NO_NETWORK },
    );
    const found = r.diagnostics.filter((d) => d.code === 'url-not-normal');
    expect(found.map((d) => [d.severity, d.url, d.line, d.field])).toEqual([
      ['warning', 'http://example.com/', 3, 'loc'],
      ['warning', 'https://example.com/a%20b', 4, 'loc'],
      ['warning', 'https://xn--bcher-kva.example/%C3%A4', 5, 'loc'],
      ['warning', 'https://example.com/x', 6, 'loc'],
      ['warning', 'https://example.com/y', 7, 'loc'],
      ['warning', 'https://example.com/z', 8, 'loc'],
    ]);
    expect(found.map((d) => d.message)).toEqual([
      '"http://example.com" is not in normal form (no / after the host): write http://example.com/',
      '"https://example.com/a b" is not in normal form (raw spaces): write https://example.com/a%20b',
      '"https://bücher.example/ä" is not in normal form (raw non-ASCII characters): write https://xn--bcher-kva.example/%C3%A4',
      '"HTTPS://Example.COM/x" is not in normal form (upper case in the scheme or host): write https://example.com/x',
      '"https://example.com:443/y" is not in normal form (an empty or default port): write https://example.com/y',
      '"https://example.com/a/../z" is not in normal form (dot segments): write https://example.com/z',
    ]);
    expect(RULES['url-not-normal']).toMatchObject({ severity: 'warning', source: 'validator' });
  });

  it('can be turned off like any rule', async () => {
    const r = await validateSitemap(
      { text: urlset(urls(['http://example.com'])) },
      { now: () => NOW, fetch: NO_NETWORK, rules: { 'url-not-normal': 'off' } },
    );
    expect(r.diagnostics.filter((d) => d.code === 'url-not-normal')).toEqual([]);
  });
});
