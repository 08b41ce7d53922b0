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
