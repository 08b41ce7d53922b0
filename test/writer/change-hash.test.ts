import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SitemapEntry } from '../../src/core/entry.js';
import { hashHex } from '../../src/core/hash.js';
import { changeHash } from '../../src/writer/change-hash.js';

const LOC = 'https://example.com/a';

/** The change hash of a plain entry as defined, computed afresh every time. */
function expected(e: SitemapEntry): string {
  return hashHex(`${e.lastmod ?? ''}|${e.changefreq ?? ''}|${e.priority ?? ''}`);
}

describe('changeHash of plain entries', () => {
  it('keeps the values earlier manifests hold (submit --since compares them across builds)', () => {
    expect(
      changeHash({ loc: LOC, lastmod: '2024-03-01T10:00:00Z', changefreq: 'daily', priority: 0.5 }, true),
    ).toBe('aba47a2e5c4a83e5');
    expect(changeHash({ loc: LOC }, true)).toBe('62965dc703339d03');
    expect(changeHash({ loc: LOC, lastmod: '2024-03-01' }, false)).toBe('a1c46ffca63bc157');
  });

  it('never hands back the hash of an earlier entry (the cache of combinations)', () => {
    // Few values, so that runs repeat and neighbours differ in a single field.
    const entry = fc.record(
      {
        lastmod: fc.constantFrom('2024-03-01', '2024-03-02', '2024-03-01T00:00:00Z'),
        changefreq: fc.constantFrom('daily', 'weekly'),
        priority: fc.constantFrom(0, 0.5, 1),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 40 }), (fields) => {
        for (const f of fields) {
          const e = { loc: LOC, ...f } as SitemapEntry;
          expect(changeHash(e, true)).toBe(expected(e));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays right while the cache stands aside for unique timestamps and after it comes back', () => {
    // 70,000 timestamps, one a second, miss the cache for more than a window: it empties and
    // stands aside (for 65,536 lookups); then a few repeated dates bring it back into use.
    const t0 = Date.UTC(2024, 2, 1);
    for (let i = 0; i < 70_000; i++) {
      const lastmod = new Date(t0 + i * 1000).toISOString().replace('.000Z', 'Z');
      const e: SitemapEntry = { loc: LOC, lastmod, changefreq: 'daily', priority: (i % 10) / 10 };
      const h = changeHash(e, true);
      if (h !== expected(e)) expect.fail(`entry ${i} (${lastmod}) got ${h}, not ${expected(e)}`);
    }
    for (let i = 0; i < 100_000; i++) {
      const e: SitemapEntry = {
        loc: LOC,
        lastmod: `2024-03-${String(1 + (i % 28)).padStart(2, '0')}`,
        changefreq: 'weekly',
        priority: (i % 10) / 10,
      };
      const h = changeHash(e, true);
      if (h !== expected(e)) expect.fail(`entry ${i} (${e.lastmod}) got ${h}, not ${expected(e)}`);
    }
  });

  it('keeps no larger text alive through a lastmod cut out of it (the parser hands such slices)', () => {
    // 200 texts of 1 MiB, each with a lastmod cut out of it and hashed, then let go: once garbage
    // is collected the heap holds a few MiB, not 200 (before the fix, the cache kept 203 MiB).
    const module = fileURLToPath(new URL('../../dist/writer/change-hash.js', import.meta.url));
    const script = `
      const { changeHash } = await import(${JSON.stringify(module)});
      let texts = [];
      for (let i = 0; i < 200; i++) {
        const day = String(1 + (i % 28)).padStart(2, '0');
        const text = 'x'.repeat(1 << 20) + '<lastmod>2024-03-' + day + 'T10:00:' + String(i % 60).padStart(2, '0') + 'Z</lastmod>';
        const at = text.indexOf('<lastmod>') + 9;
        changeHash({ loc: 'https://example.com/' + i, lastmod: text.slice(at, text.indexOf('<', at)) }, true);
        texts.push(text);
      }
      texts = [];
      gc();
      gc();
      console.log(Math.round(process.memoryUsage().heapUsed / 1048576));
    `;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(Number(r.stdout)).toBeLessThan(50);
  });
});
