import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import type { SitemapSource } from '../../src/parser/types.js';
import { tempDir } from '../support/tmp.js';
import { urlset } from './helpers.js';

const DOC = urlset('<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url>');
const BYTES = new TextEncoder().encode(DOC);
const EXPECTED = [{ loc: 'https://example.com/a' }, { loc: 'https://example.com/b' }];

function pieces(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

describe('sources', () => {
  const dir = tempDir('sk-sources');
  const path = join(dir, 'sitemap.xml.gz');
  writeFileSync(path, gzipSync(DOC));

  it.each<[string, () => SitemapSource]>([
    ['a path (gzip)', () => path],
    ['a file: URL', () => pathToFileURL(path).href],
    ['bytes', () => BYTES],
    ['gzip bytes', () => gzipSync(DOC)],
    ['{ text }', () => ({ text: DOC })],
    ['a Node readable', () => Readable.from(pieces(BYTES, 7))],
    [
      'a Node readable of strings',
      () => Readable.from([DOC.slice(0, 50), DOC.slice(50)], { objectMode: true }),
    ],
    [
      'a web ReadableStream',
      () =>
        new ReadableStream<Uint8Array>({
          start(c) {
            for (const p of pieces(gzipSync(DOC), 5)) c.enqueue(p);
            c.close();
          },
        }),
    ],
    [
      'an async iterable',
      () =>
        (async function* () {
          yield* pieces(BYTES, 3);
        })(),
    ],
  ])('%s', async (_name, make) => {
    const r = await parseSitemapToArray(make());
    expect(r.items).toEqual(EXPECTED);
    expect(r.diagnostics).toEqual([]);
  });

  it('names bytes and streams in diagnostics', async () => {
    const r = await parseSitemapToArray({ text: 'junk' });
    expect(r.diagnostics.map((d) => d.sitemap)).toEqual(['<text>', '<text>']);
  });
});
