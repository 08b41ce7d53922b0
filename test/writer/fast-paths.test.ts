/**
 * The writer's fast paths of issue 16 against their slow paths, as properties (generated records
 * and the real URLs of the fixtures):
 * - an entry without extensions serialises to ASCII, so the engine and the manifest take a
 *   string's length for its UTF-8 byte count instead of counting: every count is the real one;
 * - the file writer joins strings and encodes them once per chunk: the same chunks, byte for byte
 *   and boundary for boundary, as encoding each string on its own; a count that is short is an
 *   error, never a cut byte.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../../src/core/normalize.js';
import { SitemapEngine } from '../../src/writer/engine.js';
import { FileWriter } from '../../src/writer/file-writer.js';
import { manifestEntryLine } from '../../src/writer/manifest.js';
import { type Extension, hasExtensions, textLine, urlXml } from '../../src/writer/serialize.js';
import type { SinkFile } from '../../src/writer/sink.js';
import { entryInputArb } from '../support/arbitraries.js';
import { fixtureUrls } from '../support/fixture-urls.js';

const REAL = fixtureUrls();
const locArb = fc.oneof(
  fc.constantFrom(...REAL),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `https://example.com/${s}`),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => `http://bücher.example/${s}?q=${s}`),
);
const lastmodArb = fc.oneof(
  fc.constantFrom('2024-03-01', '2024-03-02T10:11:12+02:00', '2024-03-02T10:11Z', ' 2024-01-02', 'x'),
  fc.date({ noInvalidDate: true }),
  fc.integer(),
);
const recordArb = fc.record(
  {
    loc: locArb,
    lastmod: lastmodArb,
    changefreq: fc.constantFrom('daily', 'Weekly', 'never', 'sometimes'),
    priority: fc.oneof(fc.double(), fc.constantFrom('0.5', ' 1 ', 'high')),
  },
  { requiredKeys: ['loc'] },
);
const NONE: ReadonlySet<Extension> = new Set();

describe('ASCII byte counts', () => {
  it('an entry without extensions serialises to ASCII: its length is its UTF-8 byte count', () => {
    let checked = 0;
    fc.assert(
      fc.property(recordArb, (record) => {
        const r = normalizeEntry(record);
        if (!r.ok) return;
        const e = r.entry;
        expect(hasExtensions(e)).toBe(false);
        checked++;
        for (const s of [
          urlXml(e, NONE),
          textLine(e),
          manifestEntryLine(
            { loc: e.loc, hash: '0123456789abcdef', ...(e.lastmod && { lastmod: e.lastmod }) },
            false,
          ),
        ]) {
          expect(Buffer.byteLength(s), s).toBe(s.length);
        }
      }),
      { numRuns: 3000 },
    );
    expect(checked).toBeGreaterThan(500);
  });

  it('every real URL of the fixtures, once normalised, is ASCII', () => {
    let ok = 0;
    for (const url of REAL) {
      const r = normalizeEntry({ loc: url });
      if (!r.ok) continue;
      ok++;
      expect(Buffer.byteLength(urlXml(r.entry, NONE)), url).toBe(urlXml(r.entry, NONE).length);
    }
    expect(ok).toBeGreaterThan(100);
  });

  it("the engine's count of every chunk is the chunk's UTF-8 length, with extensions too", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(entryInputArb, recordArb), { maxLength: 30 }), (records) => {
        const counted: Array<[string, number]> = [];
        const engine = new SitemapEngine<number>(
          {
            open: () => 0,
            chunk: (_h, text, bytes) => counted.push([text, bytes]),
            close: () => undefined,
          },
          { maxUrlsPerFile: 7 },
        );
        engine.declare(['image']);
        for (const rec of records) {
          const r = normalizeEntry(rec);
          if (r.ok) engine.add(r.entry);
        }
        engine.finish();
        for (const [text, bytes] of counted) expect(bytes, text).toBe(Buffer.byteLength(text));
      }),
      { numRuns: 300 },
    );
  });
});

const CHUNK = 256 * 1024;

/** The file writer before issue 16: each string encoded on its own into the chunk. */
function chunksOneByOne(strings: string[]): Buffer[] {
  const out: Buffer[] = [];
  let chunk = Buffer.alloc(CHUNK);
  let used = 0;
  const flush = (): void => {
    if (used > 0) out.push(Buffer.from(chunk.subarray(0, used)));
    chunk = Buffer.alloc(CHUNK);
    used = 0;
  };
  for (const s of strings) {
    const n = Buffer.byteLength(s);
    if (n > CHUNK - used) {
      flush();
      if (n > CHUNK) {
        out.push(Buffer.from(s));
        continue;
      }
    }
    used += chunk.write(s, used);
  }
  flush();
  return out;
}

function recording(): SinkFile & { chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  return {
    chunks,
    write(chunk, release) {
      chunks.push(Buffer.from(chunk));
      release?.();
      return undefined;
    },
    close: async () => undefined,
    abort: () => undefined,
  };
}

describe('the file writer joins strings', () => {
  it('gives the chunks of one encode per string, byte for byte and boundary for boundary', async () => {
    const piece = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 50 }),
      fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n)),
      fc.integer({ min: 1, max: 70_000 }).map((n) => 'é'.repeat(n)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 40 }), async (strings) => {
        const sink = recording();
        const w = new FileWriter(sink);
        for (const s of strings) await w.write(s, Buffer.byteLength(s));
        const totals = await w.close();
        const expected = chunksOneByOne(strings);
        expect(sink.chunks.map((c) => c.length)).toEqual(expected.map((c) => c.length));
        expect(Buffer.concat(sink.chunks).equals(Buffer.concat(expected))).toBe(true);
        expect(totals.bytes).toBe(Buffer.concat(expected).length);
      }),
      { numRuns: 150 },
    );
  });

  it('a count that is short is an error, never a cut byte (at a chunk end too)', async () => {
    for (const fill of [0, CHUNK - 1, CHUNK - 2]) {
      const w = new FileWriter(recording());
      if (fill > 0) w.write('a'.repeat(fill), fill);
      // 'é€😀' is 9 bytes in UTF-8 and 4 UTF-16 units: counted as ASCII it is 4.
      const write = (): unknown => w.write('é€😀', 4);
      const err = await Promise.resolve()
        .then(write)
        .then(() => w.close())
        .catch((e: unknown) => e);
      expect((err as Error).message, `after ${fill} bytes`).toMatch(/^internal error: a string counted as/);
    }
  });
});
