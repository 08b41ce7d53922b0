/**
 * The SQLite store judges the input lastmods from the two ends of an index (urls_lastmods) where
 * it used to read every row: for random sets (times near and far from the build's, zones, plain
 * dates, years alone, removed rows), its answer is the one of the scan it replaced, wherever that
 * answer is used (a verdict, and then its count and example). A store made before the index gets it
 * when opened, and answers the same.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { openSqliteBackend } from '../../src/store/sqlite.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { snapshot } from './helpers.js';

const T0 = Date.UTC(2026, 10, 26, 12);
const NEAR = 15 * 60_000;

// The query every build ran before (the reference).
const SCAN = `SELECT count(*) AS count, min(input_lastmod) AS first, max(input_lastmod) AS last,
  coalesce(sum(CASE WHEN abs(julianday(input_lastmod) - @jd) * 86400000.0 <= @near THEN 0 ELSE 1 END), 0) AS far
  FROM urls NOT INDEXED WHERE file IS NOT NULL AND input_lastmod IS NOT NULL`;

function zoned(ms: number, offsetMin: number): string {
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 19);
  if (offsetMin === 0) return `${local}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

const lastmod = fc.oneof(
  // Near the build time, either side of the 15 minutes, in several zones.
  fc
    .tuple(fc.integer({ min: -20 * 60, max: 20 * 60 }), fc.constantFrom(0, 60, -300, 330))
    .map(([s, z]) => zoned(T0 + s * 1000, z)),
  fc.constantFrom('2026-11-26', '2026-11-01', '2026', '2025-01-01T00:00:00Z', '2026-11-26T12:00:00Z'),
);
const row = fc.record({ lastmod: fc.option(lastmod, { nil: null }), live: fc.boolean() });

function fill(path: string, rows: ReadonlyArray<{ lastmod: string | null; live: boolean }>): void {
  const db = new Database(path);
  const insert = db.prepare(
    `INSERT INTO urls (key, loc, section, file, hash, input_lastmod, first_seen, len, news, born, changed)
     VALUES (?, ?, '', ?, '', ?, '2026-01-01T00:00:00Z', 10, 0, 1, 1)`,
  );
  db.transaction(() => {
    for (const [i, r] of rows.entries())
      insert.run(i, `https://a.example/${i}`, r.live ? 1 : null, r.lastmod);
  })();
  db.close();
}

function reference(path: string) {
  const db = new Database(path, { readonly: true });
  const r = db.prepare(SCAN).get({ jd: T0 / 86_400_000 + 2_440_587.5, near: NEAR }) as {
    count: number;
    first: string | null;
    last: string | null;
    far: number;
  };
  db.close();
  return { count: r.count, first: r.first, same: r.first === r.last, near: r.far === 0 };
}

/** What the policy reads of an answer: the verdict, and with one its count and example. */
function used(a: { count: number; first: string | null; same: boolean; near: boolean }) {
  if (a.first === null) return { verdict: 'none' };
  if (!a.same && !a.near) return { verdict: 'none' };
  return a;
}

describe('the lastmod policy over the SQLite index', () => {
  it('answers as the scan of every row did, for random sets', async () => {
    const dir = tempDir('sk-lastmod-index');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 40 }), async (rows) => {
        const path = join(dir, `s${++n}.db`);
        await (await openSqliteBackend(path)).close();
        fill(path, rows);
        const b = await openSqliteBackend(path);
        const got = await b.inputLastmods(T0, NEAR);
        await b.close();
        expect(used(got)).toEqual(used(reference(path)));
      }),
      { numRuns: 100, seed: 1226 },
    );
  });

  it('gives a store made before the index the index when it is opened, with the same answers', async () => {
    const path = join(tempDir('sk-lastmod-index-old'), 'site.db');
    await (await openSqliteBackend(path)).close();
    // A store as the release before wrote it: no urls_lastmods.
    const db = new Database(path);
    db.exec('DROP INDEX urls_lastmods');
    db.close();
    fill(
      path,
      Array.from({ length: 25 }, (_, i) => ({
        lastmod: zoned(T0 - i * 30_000, i % 2 === 0 ? 0 : 60),
        live: true,
      })),
    );
    const want = reference(path);
    const b = await openSqliteBackend(path);
    expect(await b.inputLastmods(T0, NEAR)).toEqual(want);
    await b.close();
    const check = new Database(path, { readonly: true });
    expect(
      check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'urls_lastmods'").get(),
    ).toEqual({ name: 'urls_lastmods' });
    check.close();
  });

  it('builds the same bytes from a store made before the index, once migrated', async () => {
    const dir = tempDir('sk-lastmod-index-build');
    const path = join(dir, 'site.db');
    const now = () => new Date(T0);
    const pages = Array.from({ length: 30 }, (_, i) => ({
      loc: `https://a.example/p/${i}`,
      ...(i % 3 !== 0 && { lastmod: zoned(T0 - i * 20_000, i % 2 === 0 ? 0 : 60) }),
    }));
    const found: Diagnostic[][] = [[], []];
    const s = await openStore(path, { baseUrl: 'https://a.example/', maxUrlsPerFile: 7, now });
    await s.sync(pages);
    await s.build({ outDir: join(dir, 'a'), lastmodPolicy: 'drop', onDiagnostic: (d) => found[0]!.push(d) });
    await s.close();
    // The store as the release before left it: no urls_lastmods.
    const db = new Database(path);
    db.exec('DROP INDEX urls_lastmods');
    db.close();
    const again = await openStore(path, { now });
    await again.build({
      outDir: join(dir, 'b'),
      lastmodPolicy: 'drop',
      onDiagnostic: (d) => found[1]!.push(d),
    });
    await again.close();
    // All near the build time: the warning, and the set published without lastmods, both times.
    expect(found[0]!.map((d) => d.message)).toEqual(found[1]!.map((d) => d.message));
    expect(found[0]).toHaveLength(1);
    const [a, b] = [snapshot(join(dir, 'a')), snapshot(join(dir, 'b'))];
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [name, bytes] of a) expect(b.get(name)!.equals(bytes)).toBe(true);
    expect(a.get('sitemap-00001.xml')!.toString()).not.toContain('<lastmod>');
  });
});
