import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/sources/lines.js';
import { decodeText } from '../../src/sources/text-decode.js';
import { failure } from './helpers.js';

const FIXTURES = new URL('../fixtures/sources/', import.meta.url);

async function* chunks(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const n = Math.max(1, sizes.length === 0 ? bytes.length : sizes[i++ % sizes.length]!);
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function decodeAll(bytes: Uint8Array, sizes: readonly number[], encoding?: string): Promise<string> {
  let s = '';
  for await (const t of decodeText(chunks(bytes, sizes), { where: 'f.txt', encoding })) s += t;
  return s;
}

describe('decodeText', () => {
  it('refuses Windows-1252 read as UTF-8, naming the line and the encoding to give', async () => {
    const bytes = readFileSync(new URL('windows-1252.txt', FIXTURES));
    const e = await failure(decodeAll(bytes, []));
    expect(e.code).toBe('ERR_INPUT');
    expect(e.where).toBe('f.txt:2');
    expect(e.message).toContain('not valid UTF-8');
    expect(e.hint).toContain('--encoding windows-1252');
  });

  it('decodes Windows-1252 when told, and never yields U+FFFD', async () => {
    const bytes = readFileSync(new URL('windows-1252.txt', FIXTURES));
    const text = await decodeAll(bytes, [1], 'windows-1252');
    expect(text).toContain('https://example.com/größe');
    expect(text).not.toContain('\uFFFD');
    expect(await decodeAll(bytes, [], 'latin1')).toBe(text);
  });

  it('recognises the BOMs of UTF-8, UTF-16LE and UTF-16BE, whatever the chunking', async () => {
    const text = 'https://example.com/größe\nhttps://example.com/€\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    const u8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    for (const bytes of [le, be, u8]) {
      expect(await decodeAll(bytes, [])).toBe(text);
      expect(await decodeAll(bytes, [1])).toBe(text);
      expect(await decodeAll(bytes, [2, 3])).toBe(text);
    }
    // The BOM wins over a label, as in the WHATWG decode algorithm.
    expect(await decodeAll(le, [1], 'windows-1252')).toBe(text);
  });

  it('an unknown encoding is an options error', async () => {
    const e = await failure(decodeAll(Buffer.from('x'), [], 'klingon'));
    expect(e.code).toBe('ERR_OPTIONS');
    expect(e.message).toContain('"klingon"');
  });

  it('a sequence cut by the end of the file is on the last line', async () => {
    const e = await failure(decodeAll(Buffer.from([0x61, 0x0a, 0x62, 0xe2, 0x82]), [1]));
    expect(e.where).toBe('f.txt:2');
  });

  it('names the right line for any invalid sequence and any chunking (UTF-8 and UTF-16)', async () => {
    const line = fc.array(fc.oneof(fc.constantFrom('a', 'ß', '€', '😀', '\r'), fc.string({ maxLength: 3 })), {
      maxLength: 6,
    });
    // Byte sequences UTF-8 forbids, including ones a line feed interrupts.
    const badUtf8 = fc.constantFrom(
      [0xff],
      [0xc3],
      [0xe2, 0x82],
      [0xf0, 0x9f, 0x98],
      [0x80],
      [0xed, 0xa0, 0x80],
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        badUtf8,
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        async (rawLines, pick, bad, sizes) => {
          const lines = rawLines.map((l) => l.join('').replace(/\n/g, ''));
          const at = pick % lines.length;
          const parts = lines.map((l, i) =>
            i === at ? Buffer.concat([Buffer.from(l), Buffer.from(bad)]) : Buffer.from(l),
          );
          const bytes = Buffer.concat(
            parts.flatMap((p, i) => (i < parts.length - 1 ? [p, Buffer.from('\n')] : [p])),
          );
          const e = await failure(decodeAll(bytes, sizes));
          expect(e.where).toBe(`f.txt:${at + 1}`);
          // The same text without the bad bytes decodes exactly.
          expect(await decodeAll(Buffer.from(lines.join('\n')), sizes)).toBe(lines.join('\n'));
        },
      ),
      { numRuns: 300 },
    );
    // UTF-16: a lone surrogate.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (raw, pick, sizes, bigEndian) => {
          const lines = raw.map((l) => l.replace(/[\n\uD800-\uDFFF]/g, ''));
          const at = pick % lines.length;
          const withBad = lines.map((l, i) => (i === at ? `${l}\uD800x` : l));
          const bytes = Buffer.concat([
            Buffer.from([0xff, 0xfe]),
            Buffer.from(withBad.join('\n'), 'utf16le'),
          ]);
          if (bigEndian) bytes.swap16();
          const e = await failure(decodeAll(bytes, sizes));
          expect(e.where).toBe(`f.txt:${at + 1}`);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('decodeText on ASCII chunks', () => {
  it('reads an ASCII chunk without the decoder, and still refuses what UTF-8 refuses (property)', async () => {
    // Pieces that make chunks of pure ASCII next to ones that start, end or cut a character, or
    // hold a byte UTF-8 forbids: the text and the verdict are a one-shot fatal decoder's.
    const piece = fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((t) => Buffer.from(t)) },
      { weight: 2, arbitrary: fc.constantFrom('ß', '€', '😀', '\n').map((t) => Buffer.from(t)) },
      {
        weight: 1,
        arbitrary: fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0x80]).map((b) => Buffer.from(b)),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 20 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 4 }),
        async (pieces, sizes) => {
          const bytes = Buffer.concat(pieces);
          let want: string | undefined;
          try {
            want = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
          } catch {
            want = undefined;
          }
          const got = await decodeAll(bytes, sizes).catch((e: { code?: string }) => e);
          if (want === undefined) expect(got).toMatchObject({ code: 'ERR_INPUT' });
          else expect(got).toBe(want);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('readLines', () => {
  it('numbers the lines of a Windows-1252 file read with its encoding', async () => {
    const bytes = readFileSync(new URL('windows-1252.txt', FIXTURES));
    const got: Array<[string, number]> = [];
    for await (const l of readLines(
      (async function* () {
        yield* chunks(bytes, [1]);
      })() as unknown as NodeJS.ReadableStream,
      { where: 'f.txt', encoding: 'windows-1252' },
    ))
      got.push(l);
    expect(got.map(([, n]) => n)).toEqual([1, 2, 3]);
    expect(got[1]![0]).toBe('https://example.com/größe');
  });
});
