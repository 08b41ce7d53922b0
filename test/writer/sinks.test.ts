import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntryInput } from '../../src/core/entry.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { FileWriter } from '../../src/writer/file-writer.js';
import { loadGzip } from '../../src/writer/gzip.js';
import type { WriteSitemapsOptions } from '../../src/writer/options.js';
import type { SinkFile } from '../../src/writer/sink.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';
const NOW = new Date('2024-05-06T07:08:09Z');

function entries(n: number): EntryInput[] {
  return Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}${i % 4 === 0 ? 'blog/' : ''}p/${i}/ü`,
    lastmod: '2024-01-02',
    title: `Page ${i} – ü`,
    ...(i % 3 === 0 ? { images: [{ loc: `${BASE}i/${i}.jpg` }] } : {}),
    ...(i % 5 === 0
      ? {
          news: {
            publication: { name: 'Times', language: 'en' },
            publication_date: '2024-01-01',
            title: `新闻 ${i}`,
          },
        }
      : {}),
    ...(i % 4 === 0 ? { section: 'blog' } : {}),
  }));
}

type Variant = [string, number, Omit<WriteSitemapsOptions, 'outDir' | 'baseUrl'>];
const variants: Variant[] = [
  ['one file', 3, {}],
  ['one file, gzip', 3, { gzip: true }],
  ['sections and an index', 120, { maxUrlsPerFile: 20 }],
  ['gzip level 9, extra indexes', 120, { maxUrlsPerFile: 10, maxSitemapsPerIndex: 4, gzip: { level: 9 } }],
  ['byte budget', 80, { maxBytesPerFile: 2048 }],
  ['text, one file', 3, { format: 'txt' }],
  ['text, gzip, an XML index', 50, { format: 'txt', gzip: true, maxUrlsPerFile: 20 }],
  ['html pages and the stylesheet', 150, { html: { linksPerPage: 20 }, xsl: true, maxUrlsPerFile: 60 }],
];

/** A web stream per file that gathers its bytes, slowly: it asks the writer to wait after every chunk. */
function streamsInto(files: Map<string, Uint8Array[]>, closed: Set<string>, aborted: Map<string, unknown>) {
  return (name: string): WritableStream<Uint8Array> => {
    expect(files.has(name), `${name} opened twice`).toBe(false);
    const chunks: Uint8Array[] = [];
    files.set(name, chunks);
    return new WritableStream<Uint8Array>(
      {
        async write(chunk) {
          await Promise.resolve();
          chunks.push(chunk.slice());
        },
        close() {
          closed.add(name);
        },
        abort(reason) {
          aborted.set(name, reason);
        },
      },
      new CountQueuingStrategy({ highWaterMark: 1 }),
    );
  };
}

function folderFiles(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n))]));
}

/** xmllint on every XML sitemap of a set (gzip undone), from wherever the bytes came. */
function lintAll(files: Map<string, Uint8Array>, label: string): number {
  const dir = tempDir('sk-lint');
  let linted = 0;
  for (const [name, data] of files) {
    if (!/\.xml(\.gz)?$/.test(name)) continue;
    const path = join(dir, name);
    writeFileSync(path, data);
    const r = xmllint(path);
    expect(r.ok, `${label}: ${name}: ${r.output}`).toBe(true);
    linted++;
  }
  return linted;
}

beforeAll(() => assertXmllint());

describe('writeSitemaps into memory and web streams', () => {
  it.each(variants)(
    '%s: memory and streams hold the folder’s exact bytes, and every file validates',
    async (_name, n, extra) => {
      const common = { baseUrl: BASE, now: () => NOW, ...extra };
      const dir = tempDir();
      const folder = await writeSitemaps(entries(n), { ...common, outDir: dir });
      const onDisk = folderFiles(dir);

      const memory = await writeSitemaps(entries(n), { ...common, output: 'memory', manifest: true });
      expect(memory.memory).toBeDefined();
      expect([...memory.memory!.keys()].sort()).toEqual([...onDisk.keys()].sort());
      for (const [name, data] of onDisk)
        expect(Buffer.from(memory.memory!.get(name)!).equals(data), name).toBe(true);

      const chunks = new Map<string, Uint8Array[]>();
      const closed = new Set<string>();
      const aborted = new Map<string, unknown>();
      const streamed = await writeSitemaps(entries(n), {
        ...common,
        output: { streams: streamsInto(chunks, closed, aborted) },
        manifest: true,
      });
      expect([...chunks.keys()].sort()).toEqual([...onDisk.keys()].sort());
      expect([...closed].sort()).toEqual([...onDisk.keys()].sort());
      expect(aborted.size).toBe(0);
      const fromStreams = new Map([...chunks].map(([k, v]) => [k, Buffer.concat(v)]));
      for (const [name, data] of onDisk) expect(fromStreams.get(name)!.equals(data), name).toBe(true);

      // The same results, but for paths: a folder gives absolute paths, the others names.
      const names = (r: typeof folder) => r.files.map((f) => ({ ...f, path: f.path.replace(`${dir}/`, '') }));
      expect(names(memory)).toEqual(names(folder));
      expect(names(streamed)).toEqual(names(folder));
      expect(memory.entry.path).toBe(folder.entry.path.slice(dir.length + 1));

      const linted =
        lintAll(onDisk, 'folder') + lintAll(memory.memory!, 'memory') + lintAll(fromStreams, 'streams');
      expect(linted).toBe(3 * [...onDisk.keys()].filter((k) => /\.xml(\.gz)?$/.test(k)).length);
    },
  );

  it('memory and streams leave out the manifest unless asked for it', async () => {
    const r = await writeSitemaps([{ loc: `${BASE}a` }, { loc: `${BASE}b` }], {
      baseUrl: BASE,
      output: 'memory',
    });
    expect([...r.memory!.keys()]).toEqual(['sitemap.xml']);
    expect(new TextDecoder().decode(r.memory!.get('sitemap.xml'))).toContain(`<loc>${BASE}b</loc>`);
  });

  it('a failed run aborts the streams still open, with the run’s error', async () => {
    const chunks = new Map<string, Uint8Array[]>();
    const closed = new Set<string>();
    const aborted = new Map<string, unknown>();
    const bad = [...entries(30), { loc: '/relative' }];
    const err = await writeSitemaps(bad, {
      baseUrl: BASE,
      maxUrlsPerFile: 10,
      // Declared up front, so that files open at once (no look-ahead holds the entries back).
      extensions: ['image', 'news'],
      output: { streams: streamsInto(chunks, closed, aborted) },
    }).catch((e: unknown) => e);
    expect(isSitemapkitError(err, 'ERR_INVALID_ENTRY')).toBe(true);
    expect(aborted.size).toBeGreaterThan(0);
    for (const reason of aborted.values()) expect(reason).toBe(err);
    expect([...aborted.keys()].some((k) => closed.has(k))).toBe(false);

    const ac = new AbortController();
    ac.abort();
    const e2 = await writeSitemaps(entries(3), { baseUrl: BASE, output: 'memory', signal: ac.signal }).catch(
      (e: unknown) => e,
    );
    expect(isSitemapkitError(e2, 'ERR_ABORTED')).toBe(true);
  });

  it('a stream that fails fails the run with its error, gzip or not', async () => {
    for (const gzip of [false, true]) {
      const many = Array.from({ length: 3000 }, (_, i) => ({ loc: `${BASE}${i}/${'x'.repeat(100)}` }));
      const err = await writeSitemaps(many, {
        baseUrl: BASE,
        gzip,
        output: {
          streams: () =>
            new WritableStream({
              write() {
                throw new Error('no space left');
              },
            }),
        },
      }).catch((e: unknown) => e);
      expect((err as Error).message, `gzip ${gzip}`).toBe('no space left');
    }
  });

  it('refuses an output it does not know, and a folder and an output at once', async () => {
    for (const o of [
      { output: 'disk' as never },
      { output: { streams: 'no' } as never },
      { outDir: tempDir(), output: 'memory' as const },
      { outDir: tempDir(), manifest: false },
    ]) {
      const err = await writeSitemaps(entries(1), { baseUrl: BASE, ...o }).catch((e: unknown) => e);
      expect(isSitemapkitError(err, 'ERR_OPTIONS'), JSON.stringify(o)).toBe(true);
    }
  });

  it('gzip through CompressionStream gives zlib’s bytes at the default level', async () => {
    const text = entries(400)
      .map((e) => `${e.loc}\n`)
      .join('')
      .repeat(20);
    const gather = async (zlib: boolean): Promise<Buffer> => {
      const gz = await loadGzip(6, { zlib });
      const parts: Uint8Array[] = [];
      const target: SinkFile = {
        write: (c) => {
          parts.push(c.slice());
          return undefined;
        },
        close: async () => undefined,
        abort: () => undefined,
      };
      const w = new FileWriter(gz(target));
      await w.write(text, Buffer.byteLength(text));
      await w.close();
      return Buffer.concat(parts);
    };
    const [web, node] = await Promise.all([gather(false), gather(true)]);
    expect(gunzipSync(web).toString('utf8')).toBe(text);
    expect(web.equals(node)).toBe(true);
  });

  it('the writer subpath imports and writes into memory where node:fs does not exist', () => {
    const child = fileURLToPath(new URL('./fixtures/no-fs-child.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [child], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      blocked: true,
      names: [
        'sitemap-00001.xml.gz',
        'sitemap-00002.xml.gz',
        'sitemap-00003.xml.gz',
        'sitemap.html',
        'sitemap.xml.gz',
      ],
    });
  });
});
