/**
 * A JSONL file read and checked on a second thread (`jsonl-worker.ts`, the intake's checked lane)
 * against the same file read on the writer's thread (the default), as a property over
 * generated files: every good, bad, blank, duplicate, out-of-scope and hreflang line, every
 * `onInvalid` policy, files rotated every few URLs, files longer than the worker's group of lines
 * checked together. Same files byte for byte (the manifest included), same diagnostics in the same
 * order, same counts, same failure. Then the errors of reading itself (a missing file, bytes that
 * are not UTF-8) and an interrupted run.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultJsonlThreads } from '../../src/cli/input-flags.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { readJsonl } from '../../src/sources/index.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { entryInputArb } from '../support/arbitraries.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const BASE = 'https://example.com/';
const NOW = new Date('2025-01-02T03:04:05Z');

const lineArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: entryInputArb.map((e) => JSON.stringify(e)) },
  // Duplicates, the url spelling, fields a policy drops, and unknown fields (warnings).
  {
    weight: 3,
    arbitrary: fc
      .record({
        n: fc.integer({ min: 0, max: 5 }),
        key: fc.constantFrom('loc', 'url'),
        extra: fc.constantFrom(
          {},
          { priority: 7 },
          { lastmod: 'yesterday' },
          { changefreq: 'Sometimes' },
          { colour: 'red' },
          { section: 'blog' },
          { section: 'Bad Section' },
        ),
      })
      .map(({ n, key, extra }) => JSON.stringify({ [key]: `${BASE}dup/${n}`, ...extra })),
  },
  // Pages of hreflang groups, some one-sided.
  {
    weight: 2,
    arbitrary: fc
      .record({ a: fc.integer({ min: 0, max: 3 }), b: fc.integer({ min: 0, max: 3 }) })
      .map(({ a, b }) =>
        JSON.stringify({
          loc: `${BASE}l/${a}`,
          alternates: [
            { hreflang: 'en', href: `${BASE}l/${a}` },
            { hreflang: 'de', href: `${BASE}l/${b}` },
          ],
        }),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      '   ',
      'not json',
      '[1,2]',
      '"a string"',
      'null',
      `{"Loc":"${BASE}x"}`,
      '{"loc":"ftp://example.com/x"}',
      '{"loc":"https://other.example/x"}',
      '{"loc":42}',
      `{"loc":"${BASE}tab\\there"}`,
      `{"loc":"${BASE}caf\u00e9?q=\u4e2d&x=<y>"}`,
      `{"loc":"${BASE}a\\\\b"}`,
      '{}',
    ),
  },
);

interface Outcome {
  files?: Array<[string, string]>;
  result?: unknown;
  error?: { code: unknown; message: string; where: unknown; hint: unknown };
  diagnostics: Diagnostic[];
  progress: number[];
}

async function write(
  file: string,
  threads: boolean,
  onInvalid: 'skip' | 'drop-field' | 'fail',
): Promise<Outcome> {
  const diagnostics: Diagnostic[] = [];
  const progress: number[] = [];
  try {
    const r = await writeSitemaps(readJsonl(file, undefined, { threads }), {
      output: 'memory',
      manifest: true,
      baseUrl: BASE,
      maxUrlsPerFile: 3,
      onInvalid,
      now: () => NOW,
      onDiagnostic: (d) => diagnostics.push(d),
      onProgress: (n) => progress.push(n),
    });
    const { memory, ...rest } = r;
    const files = [...memory!].map(([name, bytes]): [string, string] => [
      name,
      Buffer.from(bytes).toString('utf8'),
    ]);
    return { files, result: rest, diagnostics, progress };
  } catch (e) {
    const err = e as { code?: unknown; message: string; where?: unknown; hint?: unknown };
    return {
      error: { code: err.code, message: err.message, where: err.where, hint: err.hint },
      diagnostics,
      progress,
    };
  }
}

describe('a JSONL file checked on a second thread', () => {
  it('writes what the writer thread writes, with the same findings in the same order', async () => {
    const dir = tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        // Up to 40 lines, or more than the worker's group of 128 lines checked together.
        fc.oneof(
          { weight: 3, arbitrary: fc.array(lineArb, { minLength: 0, maxLength: 40 }) },
          { weight: 1, arbitrary: fc.array(lineArb, { minLength: 129, maxLength: 300 }) },
        ),
        fc.constantFrom('skip', 'drop-field', 'fail'),
        fc.boolean(),
        async (lines, onInvalid, crlf) => {
          const file = join(dir, `in-${n++}.jsonl`);
          writeFileSync(file, lines.join(crlf ? '\r\n' : '\n'));
          const threaded = await write(file, true, onInvalid);
          const here = await write(file, false, onInvalid);
          expect(threaded).toEqual(here);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a large file: the same bytes across many batches, duplicates found across them', async () => {
    const dir = tempDir();
    const file = join(dir, 'big.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i++) {
      lines.push(
        i % 997 === 5
          ? 'broken {'
          : JSON.stringify({
              loc: `${BASE}p/${i % 29_000}?a=1&b=${i}`.replace(/&b=\d+$/, ''),
              lastmod: '2024-03-01',
            }),
      );
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const threaded = await write(file, true, 'skip');
    const here = await write(file, false, 'skip');
    expect(threaded.diagnostics.filter((d) => d.code === 'url-duplicate').length).toBeGreaterThan(900);
    expect(threaded.progress.length).toBeGreaterThan(20);
    expect(threaded).toEqual(here);
  });

  it('a file that cannot be read fails as it does on the writer thread', async () => {
    const dir = tempDir();
    const missing = await write(join(dir, 'missing.jsonl'), true, 'skip');
    expect(missing.error?.code).toBe('ENOENT');
    expect(missing).toEqual(await write(join(dir, 'missing.jsonl'), false, 'skip'));
    const bad = join(dir, 'latin.jsonl');
    writeFileSync(
      bad,
      Buffer.concat([
        Buffer.from(`{"loc":"${BASE}a"}\n{"loc":"${BASE}`),
        Buffer.from([0xe9]),
        Buffer.from('"}\n'),
      ]),
    );
    const threaded = await write(bad, true, 'skip');
    expect(threaded.error?.code).toBe('ERR_INPUT');
    expect(threaded.error?.where).toBe(`${bad}:2`);
    expect(threaded).toEqual(await write(bad, false, 'skip'));
  });

  it('an interrupted run stops the thread and replaces nothing', async () => {
    const dir = tempDir();
    const file = join(dir, 'in.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(JSON.stringify({ loc: `${BASE}p/${i}` }));
    writeFileSync(file, lines.join('\n'));
    const controller = new AbortController();
    const e = await writeSitemaps(readJsonl(file, undefined, { threads: true }), {
      outDir: join(dir, 'out'),
      baseUrl: BASE,
      signal: controller.signal,
      onProgress: (n) => {
        if (n >= 5000) controller.abort();
      },
    }).catch((err: unknown) => err as { code?: string });
    expect(e).toMatchObject({ code: 'ERR_ABORTED' });
  });

  it('the CLI reads on a second thread by default where there are two CPUs, and says the same with --threads 0', async () => {
    expect([1, 2, 64].map((cpus) => defaultJsonlThreads(cpus))).toEqual([0, 1, 1]);
    const dir = tempDir();
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, `{"loc":"${BASE}a"}\nnope\n{"loc":"${BASE}a"}\n{"loc":"${BASE}b","priority":3}\n`);
    const run = (extra: string[], out: string) =>
      cli(['generate', file, '--base-url', BASE, '--out', join(dir, out), ...extra]);
    const threaded = await run([], 'a');
    const here = await run(['--threads', '0'], 'b');
    const one = await run(['--threads', '1'], 'd');
    expect(one.stderr.replaceAll(join(dir, 'd'), 'OUT')).toBe(
      threaded.stderr.replaceAll(join(dir, 'a'), 'OUT'),
    );
    expect(threaded.code).toBe(1);
    expect(threaded.stderr.replaceAll(join(dir, 'a'), 'OUT')).toBe(
      here.stderr.replaceAll(join(dir, 'b'), 'OUT'),
    );
    expect(threaded.stderr).toContain(`${file}:2: error record-unreadable`);
    expect(threaded.stderr).toContain(`${file}:3: error url-duplicate`);
    // A number, as parse --threads takes: 0 or 1 here (one reader thread).
    const two = await run(['--threads', '2'], 'c');
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--threads');
  });
});
