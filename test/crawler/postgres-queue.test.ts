/**
 * The queue size that `crawl --workers N` shows every few seconds: counted through the queue's
 * indexes up to a bound (its cost never grows with the crawl), the planner's estimate beyond it,
 * labelled as one; 0 for a crawl that does not exist.
 */
import { describe, expect, it } from 'vitest';
import { openPgDb, pgTarget } from '../../src/crawler/frontier-postgres-db.js';
import { openPostgresQueue, readCrawlPhase } from '../../src/crawler/frontier-postgres-queue.js';
import { ensureCrawlSchema } from '../../src/crawler/frontier-postgres-schema.js';
import { usePostgres } from '../support/postgres.js';

const pg = usePostgres();

describe('the queue size of a shared crawl', () => {
  it('is exact up to its bound, an estimate labelled as one beyond it, 0 for no crawl', async () => {
    const none = await openPostgresQueue(pg().url, 'no_such_crawl');
    try {
      expect(await none.size()).toEqual({ size: 0, estimated: false });
    } finally {
      await none.close();
    }
    const db = await openPgDb(pgTarget(pg().url, 'q'), {
      size: 1,
      retryMs: 0,
      sleep: async () => undefined,
      name: 'test',
    });
    try {
      await ensureCrawlSchema(db);
    } finally {
      await db.close();
    }
    // 50 queued, 3 claimed, 20 finished.
    await pg().query(
      `INSERT INTO "crawl_q".urls (id, h, url, depth, source, state)
       SELECT i, md5(i::text)::uuid, 'http://x.test/' || i, 0, 'link',
         CASE WHEN i <= 50 THEN 0 WHEN i <= 53 THEN 1 ELSE 2 END
       FROM generate_series(1, 73) AS i`,
    );
    await pg().query(
      `UPDATE "crawl_q".urls SET lease_owner = 'w', lease_until = now() + interval '1 hour' WHERE state = 1`,
    );
    await pg().query('VACUUM ANALYZE "crawl_q".urls');
    const counted = await openPostgresQueue(pg().url, 'q');
    const bounded = await openPostgresQueue(pg().url, 'q', { countedUpTo: 10 });
    try {
      expect(await counted.size()).toEqual({ size: 53, estimated: false });
      // Beyond the bound: the queue index's entries as the planner counted them at the vacuum.
      expect(await bounded.size()).toEqual({ size: 53, estimated: true });
    } finally {
      await counted.close();
      await bounded.close();
    }
    // The phase `crawl` reads at its start, without a count.
    expect(await readCrawlPhase(pg().url, 'no_such_crawl')).toBe('none');
    expect(await readCrawlPhase(pg().url, 'q')).toBe('unfinished');
    await pg().query(
      `INSERT INTO "crawl_q".meta (key, value) VALUES ('status', 'complete') ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    expect(await readCrawlPhase(pg().url, 'q')).toBe('finished');
  });
});
