import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { EntryInput } from '../../src/core/entry.js';
import { LASTMOD_MIN_URLS, LASTMOD_NEAR_MS, LastmodWatch } from '../../src/writer/lastmod-policy.js';
import { MemorySink } from '../../src/writer/memory-sink.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { entryInputArb } from '../support/arbitraries.js';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';
const NOW = new Date('2026-11-26T12:00:00Z');

function pages(n: number, lastmod: (i: number) => string | undefined): EntryInput[] {
  return Array.from({ length: n }, (_, i) => {
    const l = lastmod(i);
    return l === undefined ? { loc: `${BASE}p/${i}` } : { loc: `${BASE}p/${i}`, lastmod: l };
  });
}

function minutesFromNow(m: number): string {
  return new Date(NOW.getTime() + m * 60_000).toISOString().replace('.000Z', 'Z');
}

async function findings(entries: EntryInput[], policy?: 'keep' | 'warn' | 'drop'): Promise<Diagnostic[]> {
  const seen: Diagnostic[] = [];
  await writeSitemaps(entries, {
    output: 'memory',
    baseUrl: BASE,
    now: () => NOW,
    onDiagnostic: (d) => seen.push(d),
    ...(policy !== undefined && { lastmodPolicy: policy }),
  });
  return seen.filter((d) => d.code === 'lastmod-untrustworthy');
}

/** Every file of a folder's set, by name, as text (gzip undone); the manifest's entry lines. */
function folderSet(out: string, names: string[]): Map<string, string> {
  return new Map(names.map((n) => [n, readSitemapText(join(out, n))]));
}

function manifestEntries(out: string): string[] {
  return readFileSync(join(out, '.sitemapkit-manifest.json'), 'utf8')
    .split('\n')
    .filter((l) => l.includes('"loc"'));
}

beforeAll(() => assertXmllint());

describe('lastmod policy: warn (the default)', () => {
  it('warns when every lastmod is one value, from twenty lastmods on, and keeps them', async () => {
    const same = await findings(pages(LASTMOD_MIN_URLS, () => '2026-01-01'));
    expect(same).toHaveLength(1);
    expect(same[0]!.severity).toBe('warning');
    expect(same[0]!.message).toContain(`all ${LASTMOD_MIN_URLS} lastmod values are the same (2026-01-01)`);
    expect(await findings(pages(LASTMOD_MIN_URLS - 1, () => '2026-01-01'))).toEqual([]);
    // URLs without a lastmod do not count either way.
    expect(await findings(pages(40, (i) => (i % 2 === 0 ? '2026-01-01' : undefined)))).toHaveLength(1);
    expect(await findings(pages(40, (i) => (i === 7 ? '2026-01-02' : '2026-01-01')))).toEqual([]);
  });

  it('warns when every lastmod lies within 15 minutes of the build time', async () => {
    const near = await findings(pages(30, (i) => minutesFromNow(-14 + i / 3)));
    expect(near).toHaveLength(1);
    expect(near[0]!.message).toContain('within 15 minutes of the build time');
    expect(await findings(pages(30, (i) => minutesFromNow(i === 29 ? -16 : -1)))).toEqual([]);
  });

  it('keep says nothing', async () => {
    expect(
      await findings(
        pages(50, () => '2026-01-01'),
        'keep',
      ),
    ).toEqual([]);
  });

  it('judges exactly as documented, for arbitrary sets (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }), { maxLength: 60 }),
        fc.boolean(),
        (minutes, coarse) => {
          // Coarse values repeat often (the "one value" case); fine ones spread around the build time.
          const values = minutes.map((m) =>
            m === undefined ? undefined : minutesFromNow(coarse ? m - (m % 20) : m),
          );
          const watch = new LastmodWatch(NOW);
          for (const v of values) watch.observe(v);
          const present = values.filter((v): v is string => v !== undefined);
          const same = present.every((v) => v === present[0]);
          const near = present.every((v) => Math.abs(Date.parse(v) - NOW.getTime()) <= LASTMOD_NEAR_MS);
          const expected = present.length >= LASTMOD_MIN_URLS && (same || near);
          expect(watch.verdict() !== undefined).toBe(expected);
          if (expected) expect(watch.verdict()!.kind).toBe(same ? 'same' : 'near');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('lastmod policy: drop', () => {
  for (const gzip of [false, true]) {
    it(`writes the set exactly as if the input had no lastmod${gzip ? ' (gzip)' : ''}, split over files`, async () => {
      const entries = pages(95, () => '2026-01-01').map((e, i) =>
        i % 3 === 0 ? { ...e, changefreq: 'daily', images: [`${BASE}img/${i}.jpg`] } : e,
      );
      const bare = entries.map(({ lastmod: _l, ...rest }) => rest);
      const dropped = tempDir();
      const plain = tempDir();
      const seen: Diagnostic[] = [];
      const common = { baseUrl: BASE, gzip, maxUrlsPerFile: 40, now: () => NOW };
      const r = await writeSitemaps(entries, {
        ...common,
        outDir: dropped,
        lastmodPolicy: 'drop',
        onDiagnostic: (d) => seen.push(d),
      });
      const p = await writeSitemaps(bare, { ...common, outDir: plain });
      expect(seen.filter((d) => d.code === 'lastmod-untrustworthy').map((d) => d.message)).toEqual([
        expect.stringContaining('so the sitemaps were written without lastmod'),
      ]);
      const names = r.files.map((f) => f.path.slice(dropped.length + 1));
      expect(names).toEqual(p.files.map((f) => f.path.slice(plain.length + 1)));
      expect(names).toHaveLength(4);
      // Children, index and manifest entries: the same bytes as a build without lastmod.
      expect(folderSet(dropped, names)).toEqual(folderSet(plain, names));
      expect(manifestEntries(dropped)).toEqual(manifestEntries(plain));
      expect(r.files.map((f) => [f.bytes, f.urls])).toEqual(p.files.map((f) => [f.bytes, f.urls]));
      for (const n of names) {
        expect(readSitemapText(join(dropped, n))).not.toContain(
          '<url><loc>https://example.com/p/1</loc><lastmod>',
        );
        expect(xmllint(join(dropped, n)).ok).toBe(true);
      }
      // Only the published files: the rewrite's first copies stayed in the temp folder.
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(dropped).sort()).toEqual(['.sitemapkit-manifest.json', ...names].sort());
    });
  }

  it('a dropped set is the set of the same entries without lastmod, for arbitrary entries (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(entryInputArb, {
          minLength: LASTMOD_MIN_URLS,
          maxLength: 40,
          selector: (e) => new URL(e.loc).href,
        }),
        fc.boolean(),
        fc.integer({ min: 1, max: 30 }),
        async (inputs, gzip, maxUrlsPerFile) => {
          const stamped = inputs.map((e) => ({ ...e, lastmod: '2025-06-01T08:00:00Z' }));
          const bare = inputs.map(({ lastmod: _l, ...rest }) => rest);
          const common = { output: 'memory' as const, baseUrl: BASE, gzip, maxUrlsPerFile, now: () => NOW };
          const dropped = await writeSitemaps(stamped, {
            ...common,
            lastmodPolicy: 'drop',
            newsWindow: false,
          });
          const plain = await writeSitemaps(bare, { ...common, newsWindow: false });
          expect(dropped.counts.warning - plain.counts.warning).toBe(1);
          expect([...dropped.memory!.keys()]).toEqual([...plain.memory!.keys()]);
          for (const [name, data] of plain.memory!)
            expect(Buffer.from(dropped.memory!.get(name)!).equals(Buffer.from(data)), name).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('changes nothing when the lastmods look honest', async () => {
    const entries = pages(30, (i) => `2026-01-${String(i + 1).padStart(2, '0')}`);
    const a = tempDir();
    const b = tempDir();
    await writeSitemaps(entries, { outDir: a, baseUrl: BASE, now: () => NOW, lastmodPolicy: 'drop' });
    await writeSitemaps(entries, { outDir: b, baseUrl: BASE, now: () => NOW, lastmodPolicy: 'keep' });
    expect(readFileSync(join(a, 'sitemap.xml'))).toEqual(readFileSync(join(b, 'sitemap.xml')));
    expect(readFileSync(join(a, '.sitemapkit-manifest.json'))).toEqual(
      readFileSync(join(b, '.sitemapkit-manifest.json')),
    );
  });

  it('needs a sink it can read back: web streams are refused before anything is written', async () => {
    const opened: string[] = [];
    const run = writeSitemaps(
      pages(30, () => '2026-01-01'),
      {
        output: {
          streams: (name) => {
            opened.push(name);
            return new WritableStream();
          },
        },
        baseUrl: BASE,
        lastmodPolicy: 'drop',
      },
    );
    await expect(run).rejects.toThrow(/lastmodPolicy 'drop' rewrites the set before it is published/);
    expect(opened).toEqual([]);
  });

  it('a failure while rewriting leaves the previous set as it was', async () => {
    class Unreadable extends MemorySink {
      broken = false;
      override async *read(name: string): AsyncIterable<Uint8Array> {
        if (this.broken) throw new Error(`cannot read ${name}`);
        yield* super.read(name);
      }
    }
    const sink = new Unreadable();
    await writeSitemaps(
      pages(30, () => '2026-01-01'),
      { output: sink, baseUrl: BASE, lastmodPolicy: 'drop' },
    );
    const before = new Map(sink.files);
    expect(Buffer.from(before.get('sitemap.xml')!).toString()).not.toContain('<lastmod>');
    sink.broken = true;
    await expect(
      writeSitemaps(
        pages(40, () => '2026-02-02'),
        { output: sink, baseUrl: BASE, lastmodPolicy: 'drop' },
      ),
    ).rejects.toThrow('cannot read sitemap-00001.xml');
    expect(sink.files).toEqual(before);
  });
});

describe('lastmod policy on the command line', () => {
  it('generate --from-dir --lastmod mtime on a fresh checkout warns, and --lastmod-policy drop leaves lastmod out', async () => {
    const dir = tempDir();
    const site = join(dir, 'site');
    mkdirSync(site);
    // Files written just now: their mtimes are the build time, as after a fresh checkout.
    for (let i = 0; i < 25; i++)
      writeFileSync(join(site, `page-${i}.html`), `<!doctype html><title>Page ${i}</title><p>${i}</p>`);
    const out = join(dir, 'out');
    const args = ['generate', '--from-dir', site, '--base-url', BASE, '--out', out, '--lastmod', 'mtime'];
    const warn = await runBin(args);
    expect(warn.code, warn.stderr).toBe(0);
    expect(warn.stderr).toContain('lastmod-untrustworthy');
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain('<lastmod>');
    const drop = await runBin([...args, '--lastmod-policy', 'drop', '--gzip']);
    expect(drop.code, drop.stderr).toBe(0);
    expect(drop.stderr).toContain('written without lastmod');
    const xml = readSitemapText(join(out, 'sitemap.xml.gz'));
    expect(xml).toContain('<loc>https://example.com/page-0.html</loc>');
    expect(xml).not.toContain('<lastmod>');
    const keep = await runBin([...args, '--lastmod-policy', 'keep']);
    expect(keep.stderr).not.toContain('lastmod-untrustworthy');
    const bad = await runBin([...args, '--lastmod-policy', 'sometimes']);
    expect(bad.code).toBe(2);
  });
});
