// The SQLite backend inserts new URLs many rows a statement and derives each row's id from the
// statement's last one: the ids it returns must be the rows' own, whatever the batch sizes and
// whatever was deleted before (an import marks what it saw by these ids, and a full-set sync
// removes the rest).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewUrlRow } from '../../src/store/backend.js';
import { openSqliteBackend } from '../../src/store/sqlite.js';

function row(loc: string): NewUrlRow {
  return {
    loc,
    section: '',
    file: 1,
    hash: 'h',
    inputLastmod: null,
    changedAt: null,
    firstSeen: '2026-01-01T00:00:00Z',
    len: 40,
    news: 0,
    entry: null,
    fragment: null,
    born: 1,
    changed: 1,
    removedAt: null,
  };
}

describe('SqliteBackend.insert', () => {
  it('returns every inserted row its own id, across batches and after deletions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ add: fc.integer({ min: 0, max: 300 }), drop: fc.integer({ min: 0, max: 80 }) }),
          { minLength: 1, maxLength: 4 },
        ),
        async (steps) => {
          const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-insert-'));
          const b = await openSqliteBackend(join(dir, 'site.db'));
          try {
            let n = 0;
            const live: number[] = [];
            for (const { add, drop } of steps) {
              const rows = Array.from({ length: add }, () => row(`https://example.com/${n++}`));
              const ids = await b.insert(rows);
              expect(ids).toHaveLength(add);
              const got = await b.rows(ids);
              expect(ids.map((id) => got.get(id)?.loc)).toEqual(rows.map((r) => r.loc));
              live.push(...ids);
              // Deleting the newest rows too: the next ids start again from the largest left.
              const gone = live.splice(Math.max(0, live.length - drop), drop);
              await b.deleteIds(gone);
            }
          } finally {
            await b.close();
            rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('SqliteInserter: the new rows of an import bind their shared values once', () => {
  // An import's new rows share their first-seen time and generations, written into the statement's
  // text; any other row (a different time, a change time, a tombstone) is bound in full. Whatever
  // the mix, every column must read back as given.
  it('stores every column of every row as given, shared or not (property)', async () => {
    const rowArb = fc.record({
      own: fc.boolean(),
      section: fc.constantFrom('', 'blog'),
      changedAt: fc.constantFrom(null, '2026-02-02T00:00:00Z'),
      firstSeen: fc.constantFrom('2026-01-01T00:00:00Z', "2026-01-01T00:00:00Z' ", '2026-03-01T10:00:00.5Z'),
      gen: fc.integer({ min: 1, max: 3 }),
      entry: fc.constantFrom(null, '{"priority":0.5}'),
      news: fc.constantFrom(0, 1),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 60, maxLength: 200 }), async (specs) => {
        const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-insert-'));
        const b = await openSqliteBackend(join(dir, 'site.db'));
        try {
          const rows: NewUrlRow[] = specs.map((s, i) => {
            const r = row(`https://example.com/${i}`);
            if (!s.own) return r;
            return {
              ...r,
              section: s.section,
              changedAt: s.changedAt,
              firstSeen: s.firstSeen,
              born: s.gen,
              changed: s.gen + 1,
              entry: s.entry,
              news: s.news,
              removedAt: s.gen === 3 ? '2026-04-04T00:00:00Z' : null,
            };
          });
          const ids = await b.insert(rows);
          const got = await b.rows(ids);
          const back = await b.tombstones(0, 1000);
          const live = await b.liveRows(0, 1000);
          const full = new Map([...back, ...live].map((r) => [r.id, r]));
          ids.forEach((id, i) => {
            const { id: _id, ...stored } = full.get(id)!;
            expect(stored).toEqual(rows[i]);
            expect(got.get(id)?.loc).toBe(rows[i]!.loc);
          });
        } finally {
          await b.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 30 },
    );
  });
});
