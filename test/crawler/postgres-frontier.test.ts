/**
 * The PostgreSQL frontier on its own (no HTTP): the commit's rules that the worker's in-memory
 * memo of known URLs (id and depth) must not bend. A URL remembered at one depth and found again
 * closer to the start is still lowered; links are recorded once per pair, by the right ids; and a
 * batch whose transaction rolled back teaches the memo nothing (its new ids never existed).
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Admit, Found, Lease } from '../../src/crawler/frontier.js';
import { PostgresFrontier } from '../../src/crawler/frontier-postgres.js';
import { openPgDb, PG_VERSION, type PgDb, pgTarget } from '../../src/crawler/frontier-postgres-db.js';
import { copyToSqlite } from '../../src/crawler/frontier-postgres-read.js';
import { ensureCrawlSchema } from '../../src/crawler/frontier-postgres-schema.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';

const pg = usePostgres();
const open: PgDb[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

const queue: Admit = () => ({ kind: 'queued' });
const link = (url: string, depth: number): Found => ({ url, depth, source: 'link' });
const u = (path: string): string => `https://example.com${path}`;
// A fetched page's outcome (one request): what the worker counts as a page it fetched.
const page = { verdict: 'listed', status: 200, attempts: 1 } as const;

let crawls = 0;
async function frontier(db?: PgDb, knownCap?: number): Promise<{ db: PgDb; frontier: PostgresFrontier }> {
  const d =
    db ??
    (await openPgDb(pgTarget(pg().url, `front${++crawls}`), {
      size: 2,
      retryMs: 0,
      sleep: async () => undefined,
      name: 'test',
    }));
  if (db === undefined) {
    open.push(d);
    await ensureCrawlSchema(d);
  }
  const f = new PostgresFrontier(d, {
    workerId: 'w1',
    leaseSeconds: 30,
    maxDepth: 10,
    lot: 100,
    onStep: undefined,
    ...(knownCap === undefined ? {} : { knownCap }),
  });
  return { db: d, frontier: f };
}

async function depths(db: PgDb): Promise<Record<string, number>> {
  const rows = await db.query<{ url: string; depth: number }>('read', 'SELECT url, depth FROM urls');
  return Object.fromEntries(rows.map((r) => [r.url, r.depth]));
}

async function links(db: PgDb): Promise<string[]> {
  const rows = await db.query<{ s: string; t: string }>(
    'read',
    `SELECT s.url AS s, t.url AS t FROM page_links l CROSS JOIN LATERAL unnest(l.targets) AS x(target)
     JOIN urls s ON s.id = l.source JOIN urls t ON t.id = x.target ORDER BY 1, 2`,
  );
  return rows.map((r) => `${r.s} -> ${r.t}`);
}

async function leaseAll(f: PostgresFrontier): Promise<Map<string, Lease>> {
  return new Map((await f.lease(100)).map((l) => [l.url, l]));
}

describe('PostgresFrontier and its memo of known URLs', () => {
  it('a URL it remembers deep and finds again closer to the start is still lowered; links once per pair', async () => {
    const { db, frontier: f } = await frontier();
    f.add([link(u('/'), 0)], queue);
    await f.commit();
    const root = (await leaseAll(f)).get(u('/'))!;
    f.finish(root, page, [link(u('/a'), 1), link(u('/a'), 1), link(u('/'), 1)], queue);
    await f.commit();
    const a = (await leaseAll(f)).get(u('/a'))!;
    // /a names /deep at depth 2, and the same worker remembers it there.
    f.finish(a, page, [link(u('/deep'), 2), link(u('/'), 2)], queue);
    await f.commit();
    expect((await depths(db))[u('/deep')]).toBe(2);
    // A second crawl id's worker would not know: this one does, and must still lower it.
    f.add([link(u('/deep'), 0), link(u('/a'), 3)], queue);
    expect(await f.commit()).toMatchObject({ queued: 0 });
    expect(await depths(db)).toMatchObject({ [u('/')]: 0, [u('/a')]: 1, [u('/deep')]: 0 });
    expect(await links(db)).toEqual([
      `${u('/')} -> ${u('/a')}`,
      `${u('/a')} -> ${u('/')}`,
      `${u('/a')} -> ${u('/deep')}`,
    ]);
  });

  it('a URL another worker lowered while this one remembered it deeper is recorded by its id', async () => {
    const { db, frontier: one } = await frontier();
    const { frontier: two } = await frontier(db);
    one.add([link(u('/'), 0), link(u('/x'), 5)], queue);
    await one.commit();
    two.add([link(u('/x'), 1)], queue);
    expect(await two.commit()).toMatchObject({ queued: 0 });
    const root = (await leaseAll(one)).get(u('/'))!;
    one.finish(root, page, [link(u('/x'), 1)], queue);
    await one.commit();
    expect((await depths(db))[u('/x')]).toBe(1);
    expect(await links(db)).toEqual([`${u('/')} -> ${u('/x')}`]);
  });

  it('a batch whose transaction rolled back teaches the memo nothing: the next commit inserts its URLs again', async () => {
    const { db, frontier: f } = await frontier();
    f.add([link(u('/'), 0)], queue);
    await f.commit();
    const root = (await leaseAll(f)).get(u('/'))!;
    f.finish(root, page, [link(u('/new'), 1)], queue);
    // Fault injection: the batch's statements all run, then the transaction is rolled back.
    const transaction = db.transaction.bind(db);
    db.transaction = ((doing: string, fn: Parameters<PgDb['transaction']>[1]) =>
      transaction(doing, async (c) => {
        await fn(c);
        throw new Error('injected failure before COMMIT');
      })) as PgDb['transaction'];
    await expect(f.commit()).rejects.toThrow(/injected failure/);
    expect(await depths(db)).toEqual({ [u('/')]: 0 });
    db.transaction = transaction;
    await f.commit();
    expect(await depths(db)).toEqual({ [u('/')]: 0, [u('/new')]: 1 });
    expect(await links(db)).toEqual([`${u('/')} -> ${u('/new')}`]);
  });

  it('has the planner statistics of the URLs made once its additions reach 1,000, so that claims walk the queue index', async () => {
    const { db, frontier: f } = await frontier();
    const reltuples = async (): Promise<number> =>
      (
        await db.query<{ n: number }>(
          'read',
          "SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'urls'::regclass",
        )
      )[0]!.n;
    f.add(
      Array.from({ length: 1000 }, (_, i) => link(u(`/p${i}`), 1)),
      queue,
    );
    expect(await f.commit()).toMatchObject({ queued: 1000 });
    // Autovacuum looks once a minute: without the worker's ANALYZE the table stays never analysed (-1).
    expect(await reltuples()).toBe(1000);
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      'explain',
      'EXPLAIN SELECT id FROM urls WHERE state = 0 AND depth < 1000000000 ORDER BY depth, id LIMIT 128',
    );
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index (Only )?Scan using urls_queue/);
  });

  it('a page finished twice (its lease expired under a slow worker) is recorded once, its links once, on the one-statement path too', async () => {
    const { db, frontier: one } = await frontier();
    const { frontier: two } = await frontier(db);
    one.add([link(u('/'), 0)], queue);
    await one.commit();
    two.add([link(u('/'), 0)], queue);
    await two.commit();
    const root = (await leaseAll(one)).get(u('/'))!;
    one.finish(root, page, [link(u('/a'), 1)], queue);
    await one.commit();
    const a = (await leaseAll(one)).get(u('/a'))!;
    // The lease expires: the other worker, which knows every URL /a names, takes and finishes it.
    await db.query('expire', 'UPDATE urls SET state = 0, lease_owner = NULL WHERE url = $1', [u('/a')]);
    expect((await leaseAll(two)).has(u('/a'))).toBe(true);
    two.finish(a, page, [link(u('/'), 2)], queue);
    await two.commit();
    expect(two.pages).toBe(1);
    // The slow worker finishes it too, also by the one-statement path (it knows /): nothing recorded.
    one.finish(a, page, [link(u('/'), 2)], queue);
    await one.commit();
    expect(one.pages).toBe(1);
    expect(await links(db)).toEqual([`${u('/')} -> ${u('/a')}`, `${u('/a')} -> ${u('/')}`]);
    const rows = await db.query<{ n: number }>('read', 'SELECT count(*)::int AS n FROM progress');
    expect(rows[0]!.n).toBe(2);
  });

  it('a crawl begun with a row per link (schema version 1) is migrated, and the copy for the output has its old links and its new ones', async () => {
    const { db, frontier: one } = await frontier();
    one.add([link(u('/'), 0)], queue);
    await one.commit();
    one.finish((await leaseAll(one)).get(u('/'))!, page, [link(u('/a'), 1), link(u('/b'), 1)], queue);
    await one.commit();
    // Version 1 of the schema: the same links as a row each, in `links`.
    await db.transaction('make it version 1', async (c) => {
      await c.query(
        'CREATE TABLE links (target bigint NOT NULL, source bigint NOT NULL); CREATE INDEX links_source ON links (source)',
      );
      await c.query('INSERT INTO links (target, source) SELECT unnest(targets), source FROM page_links');
      await c.query('DROP TABLE page_links');
      await c.query("UPDATE meta SET value = '1' WHERE key = 'version'");
    });
    expect(await ensureCrawlSchema(db)).toBe(false);
    const version = await db.query<{ value: string }>('read', "SELECT value FROM meta WHERE key = 'version'");
    expect(version[0]!.value).toBe(PG_VERSION);
    const { frontier: two } = await frontier(db);
    const leases = await leaseAll(two);
    two.finish(leases.get(u('/a'))!, page, [link(u('/'), 2), link(u('/b'), 2)], queue);
    two.finish(leases.get(u('/b'))!, page, [link(u('/c'), 2)], queue);
    await two.commit();
    const path = join(tempDir('sk-pgl'), 'state.db');
    await copyToSqlite(db, path, { links: true });
    const lite = new Database(path, { readonly: true });
    try {
      const pairs = lite
        .prepare(
          'SELECT s.url AS s, t.url AS t FROM links l JOIN urls s ON s.id = l.source JOIN urls t ON t.id = l.target ORDER BY 1, 2',
        )
        .all() as Array<{ s: string; t: string }>;
      expect(pairs.map((r) => `${r.s} -> ${r.t}`)).toEqual([
        `${u('/')} -> ${u('/a')}`,
        `${u('/')} -> ${u('/b')}`,
        `${u('/a')} -> ${u('/')}`,
        `${u('/a')} -> ${u('/b')}`,
        `${u('/b')} -> ${u('/c')}`,
      ]);
    } finally {
      lite.close();
    }
  });

  it('in the crawl loop a batch gathers while the one before is written, and a worker that stops writes both before it returns its claims', async () => {
    const { db } = await frontier();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    let writes = 0;
    const f = new PostgresFrontier(db, {
      workerId: 'w1',
      leaseSeconds: 30,
      maxDepth: 10,
      lot: 100,
      // The loop's first batch is held in its transaction's way until the gate opens.
      onStep: async (step) => {
        if (step === 'pg:before-commit' && ++writes === 2) await gate;
      },
    });
    f.add([link(u('/'), 0), link(u('/a'), 1), link(u('/b'), 1)], queue);
    await f.commit();
    f.ahead = true;
    const leases = new Map((await f.lease(100)).map((l) => [l.url, l]));
    expect([...leases.keys()].sort()).toEqual([u('/'), u('/a'), u('/b')]);
    f.finish(leases.get(u('/'))!, page, [link(u('/a'), 1)], queue);
    await f.commit();
    // The first batch is held: this commit returns at once (waiting would never end), /a gathering.
    f.finish(leases.get(u('/a'))!, page, [], queue);
    await f.commit();
    const states = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        (await db.query<{ url: string; state: number }>('read', 'SELECT url, state FROM urls')).map((r) => [
          r.url,
          r.state,
        ]),
      );
    expect(await states()).toEqual({ [u('/')]: 1, [u('/a')]: 1, [u('/b')]: 1 });
    const stopping = f.requeue();
    open();
    await stopping;
    f.ahead = false;
    // Both batches recorded; only /b, never fetched, went back to the queue.
    expect(await states()).toEqual({ [u('/')]: 2, [u('/a')]: 2, [u('/b')]: 0 });
    expect(f.pages).toBe(2);
    expect(await links(db)).toEqual([`${u('/')} -> ${u('/a')}`]);
  });

  it('a memo of two URLs records the same crawl as one that forgets nothing: depths, states and links (generated sites)', async () => {
    // A site: page i links to the pages listed for it (any, itself and the start included).
    const site = fc.array(fc.uniqueArray(fc.nat(11), { maxLength: 5 }), { minLength: 1, maxLength: 12 });
    /** Crawls `pages` breadth first, a claim at a time, and reads back what the database holds. */
    const crawlWith = async (pages: number[][], knownCap: number | undefined): Promise<unknown> => {
      const { db, frontier: f } = await frontier(undefined, knownCap);
      const p = (i: number): string => u(`/p${i}`);
      f.add([link(p(0), 0)], queue);
      await f.commit();
      for (;;) {
        const leases = await f.lease(3);
        if (leases.length === 0) break;
        for (const l of leases) {
          const i = Number(/\/p(\d+)$/.exec(l.url)![1]);
          const out = (pages[i] ?? []).filter((t) => t < pages.length);
          f.finish(
            l,
            page,
            out.map((t) => link(p(t), l.depth + 1)),
            queue,
          );
        }
        await f.commit();
      }
      const rows = await db.query<{ url: string; depth: number; state: number }>(
        'read',
        'SELECT url, depth, state FROM urls ORDER BY url',
      );
      const result = { rows, links: await links(db) };
      open.splice(open.indexOf(db), 1);
      await db.close();
      return result;
    };
    await fc.assert(
      fc.asyncProperty(site, async (pages) => {
        expect(await crawlWith(pages, 2)).toEqual(await crawlWith(pages, undefined));
      }),
      { numRuns: 25 },
    );
  });
});
