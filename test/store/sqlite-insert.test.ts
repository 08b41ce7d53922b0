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
  // text, and a plain entry's empty section, news flag, JSON and fragment too; any other row (a
  // different time, a change time, a tombstone, a quote in the time) is bound in full. Rows come in
  // runs of one kind, so that whole statements of 64 rows of each kind, and mixes, all occur.
  // Whatever the mix, every column must read back as given.
  type Kind =
    | 'plain'
    | 'section'
    | 'news'
    | 'entry'
    | 'fragment'
    | 'lastmod'
    | 'changed'
    | 'gen'
    | 'born'
    | 'tomb'
    | 'time'
    | 'quote';
  const kinds: Kind[] = [
    'plain',
    'section',
    'news',
    'entry',
    'fragment',
    'lastmod',
    'changed',
    'gen',
    'born',
    'tomb',
    'time',
    'quote',
  ];
  function make(kind: Kind, i: number): NewUrlRow {
    const r = row(`https://example.com/${i}`);
    switch (kind) {
      case 'plain':
        return r;
      case 'section':
        return { ...r, section: 'blog' };
      case 'news':
        return { ...r, news: 1 };
      case 'entry':
        return { ...r, entry: '{"priority":0.3}' };
      case 'fragment':
        return { ...r, fragment: '<url><loc>x</loc></url>\n' };
      case 'lastmod':
        return { ...r, inputLastmod: '2025-12-31' };
      case 'changed':
        return { ...r, changedAt: '2026-02-02T00:00:00Z' };
      case 'gen':
        return { ...r, changed: 2 };
      case 'born':
        return { ...r, born: 0 };
      case 'tomb':
        return { ...r, file: null, removedAt: '2026-04-04T00:00:00Z' };
      case 'time':
        return { ...r, firstSeen: '2026-03-01T10:00:00.5Z', born: 3, changed: 3 };
      case 'quote':
        return { ...r, firstSeen: "2026-01-01T00:00:00Z' " };
    }
  }

  it('stores every column of every row as given, shared or not (property)', async () => {
    const runArb = fc.record({ kind: fc.constantFrom(...kinds), count: fc.integer({ min: 1, max: 140 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(runArb, { minLength: 1, maxLength: 6 }), async (runs) => {
        const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-insert-'));
        const b = await openSqliteBackend(join(dir, 'site.db'));
        try {
          const rows: NewUrlRow[] = runs
            .flatMap(({ kind, count }) => Array.from({ length: count }, () => kind))
            .map((kind, i) => make(kind, i));
          const ids = await b.insert(rows);
          const full = new Map(
            [...(await b.tombstones(0, 1000)), ...(await b.liveRows(0, 1000))].map((r) => [r.id, r]),
          );
          expect(full.size).toBe(rows.length);
          ids.forEach((id, i) => {
            const { id: _id, ...stored } = full.get(id)!;
            expect(stored).toEqual(rows[i]);
          });
        } finally {
          await b.close();
          rmSync(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});
