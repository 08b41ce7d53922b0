/**
 * The writer fills a chunk again once the sink has released it (file-writer.ts): never before. A
 * sink that keeps chunks a random while (a slow disk) and releases them only after taking their
 * bytes, several writers at once sharing the released chunks: every file holds exactly what was
 * written into it. And through the folder sink, files written side by side are the same bytes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileWriter } from '../../src/writer/file-writer.js';
import { FolderSink } from '../../src/writer/folder-sink.js';
import type { SinkFile } from '../../src/writer/sink.js';
import { tempDir } from '../support/tmp.js';

/** A sink that holds each chunk until a later tick (chosen by `delays`), then copies and releases it. */
function slowSink(delays: () => number): SinkFile & { bytes(): Buffer; released: number } {
  const parts: Buffer[] = [];
  const pending: Array<Promise<void>> = [];
  const sink = {
    released: 0,
    write(chunk: Uint8Array, release?: () => void) {
      const at = parts.length;
      parts.push(Buffer.alloc(0));
      const wait = delays();
      pending.push(
        new Promise<void>((resolve) => {
          setTimeout(() => {
            // The bytes are read only now, as a disk write would read them.
            parts[at] = Buffer.from(chunk);
            if (release !== undefined) {
              sink.released++;
              release();
            }
            resolve();
          }, wait);
        }),
      );
      return undefined;
    },
    async close() {
      await Promise.all(pending);
    },
    abort() {},
    bytes: () => Buffer.concat(parts),
  };
  return sink;
}

const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }).map((s) => ({ s })),
  fc.integer({ min: 1, max: 300_000 }).map((n) => ({ n })),
);

describe('the file writer', () => {
  it('fills a released chunk again, never one a sink still holds (random writes, several writers at once)', async () => {
    let released = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(piece, { maxLength: 60 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(3), { minLength: 1, maxLength: 20 }),
        async (files, waits) => {
          let k = 0;
          const delays = () => waits[k++ % waits.length]!;
          const written = files.map(async (pieces, f) => {
            const sink = slowSink(delays);
            const w = new FileWriter(sink);
            const want: Buffer[] = [];
            for (const [i, p] of pieces.entries()) {
              if ('s' in p) {
                want.push(Buffer.from(p.s));
                const wait = w.write(p.s, Buffer.byteLength(p.s));
                if (wait !== undefined) await wait;
              } else {
                // Large writes, the kind that fill and hand on whole chunks.
                const s = String.fromCharCode(97 + ((i + f) % 26)).repeat(p.n);
                want.push(Buffer.from(s));
                const wait = w.write(s, p.n);
                if (wait !== undefined) await wait;
              }
              if (i % 7 === 3) await new Promise((r) => setTimeout(r, 0));
            }
            const totals = await w.close();
            released += sink.released;
            expect(sink.bytes().equals(Buffer.concat(want))).toBe(true);
            expect(totals.bytes).toBe(Buffer.concat(want).length);
          });
          await Promise.all(written);
        },
      ),
      { numRuns: 40, seed: 1226 },
    );
    // The chunks were released (and so could be, and were, filled again).
    expect(released).toBeGreaterThan(0);
  });

  it('writes the same bytes through the folder sink, files side by side', async () => {
    const dir = tempDir('sk-file-writer');
    const sink = new FolderSink(join(dir, 'out'));
    await sink.start();
    const texts = Array.from({ length: 3 }, (_, f) =>
      Array.from({ length: 20_000 }, (_, i) => `<url><loc>https://a.example/${f}/${i}</loc></url>\n`),
    );
    await Promise.all(
      texts.map(async (lines, f) => {
        const w = new FileWriter(sink.create(`f${f}.xml`));
        for (const line of lines) {
          const wait = w.write(line, line.length);
          if (wait !== undefined) await wait;
        }
        await w.close();
      }),
    );
    await sink.commit({
      files: texts.map((_, f) => ({ name: `f${f}.xml`, as: `f${f}.xml`, sha256: '' })),
    });
    for (const [f, lines] of texts.entries())
      expect(readFileSync(join(dir, 'out', `f${f}.xml`), 'utf8')).toBe(lines.join(''));
  });
});
