import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { lockKey, postgresTarget } from '../../src/store/postgres-open.js';
import { openStore, type SiteStore } from '../../src/store/store.js';
import { runBin } from '../support/cli.js';
import { eventually, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { BASE, clock, publishedUrls, snapshot, urls } from './helpers.js';

// What only the PostgreSQL store has: the advisory lock across processes, the schema, the URL's
// password kept out of every message, and a connection lost in the middle of a build.
const server = usePostgres();
let schemas = 0;
const fresh = (): string => `${server().url}?schema=t_${++schemas}`;

const open: SiteStore[] = [];
async function store(url: string, options: Parameters<typeof openStore>[1] = {}): Promise<SiteStore> {
  const s = await openStore(url, { baseUrl: BASE, ...options });
  open.push(s);
  return s;
}

const STORE_SESSIONS = "SELECT pid FROM pg_stat_activity WHERE application_name = 'sitemapkit store'";

/** True once no session of the store is left on the server. */
async function storeConnectionsGone(): Promise<void> {
  await eventually(async () => (await server().query(STORE_SESSIONS)).rows.length === 0);
}

/**
 * Cuts the store's sessions and waits until the server has ended them: pg_terminate_backend only
 * signals, so without the wait the store's next statement (a COMMIT) could still get through.
 */
async function cutStoreConnections(): Promise<void> {
  const pids = (await server().query(STORE_SESSIONS)).rows.map((r) => r['pid'] as number);
  await server().query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  await eventually(
    async () =>
      (await server().query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids])).rows
        .length === 0,
  );
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('the PostgreSQL site store', () => {
  it('one process at a time per schema: another process is refused while the first holds it, and may open it once it closes', async () => {
    const url = fresh();
    const s = await store(url);
    await s.add(urls(0, 3));
    // Another process (the CLI), not another connection of this one.
    const busy = await runBin(['store', 'stats', '--store', url]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/the site store is in use by another sitemapkit process/);
    expect(busy.stderr).not.toContain(server().password);
    // Another schema of the same database is another store, free to open.
    const other = await store(`${server().url}?schema=t_other`);
    expect((await other.stats()).live).toBe(0);
    await s.close();
    const after = await runBin(['store', 'stats', '--store', url]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/3 live URLs/);
  });

  it('the lock is the session advisory lock keyed on the schema, held while open and gone on close', async () => {
    const url = fresh();
    const { schema } = postgresTarget(url);
    const held = async (): Promise<number> =>
      (
        await server().query(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND ((classid::bigint << 32) | objid::bigint) = ($1::bigint & x'ffffffffffffffff'::bigint)",
          [lockKey(schema)],
        )
      ).rows[0]!['n'];
    const s = await store(url);
    expect(await held()).toBe(1);
    await s.close();
    await eventually(async () => (await held()) === 0);
  });

  it('names the store without its password: store stats, and every failure', async () => {
    const dir = tempDir('sk-store-pg');
    const url = fresh();
    const input = join(dir, 'u.txt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(input, `${BASE}a\n${BASE}b\n`);
    const gen = await runBin([
      'generate',
      input,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'out'),
      '--store',
      url,
    ]);
    expect(gen.code, gen.stderr).toBe(0);
    const stats = await runBin(['store', 'stats', '--store', url]);
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(
      /^postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/sitemapkit\?schema=t_\d+: 2 live URLs/,
    );
    for (const r of [gen, stats]) expect(r.stdout + r.stderr).not.toContain(server().password);
  });

  it('a wrong password and a server that is not there are one sentence each, without the password', async () => {
    const wrong = `postgres://postgres:not-the-password-${'x'.repeat(6)}@127.0.0.1:${server().port}/sitemapkit`;
    const e = await openStore(wrong).catch((x: unknown) => x);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toMatch(/^the server refused the login/);
    const r = await runBin(['store', 'stats', '--store', wrong]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^sitemapkit: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/sitemapkit: the server refused the login/,
    );
    expect(lines[1]).toMatch(/--store postgres:\/\/USER:PASSWORD@HOST\/DB/);
    expect(r.stderr).not.toContain('not-the-password');

    const gone = `postgres://postgres:secret-word@127.0.0.1:${await closedPort()}/sitemapkit`;
    const c = await runBin(['store', 'list', '--store', gone]);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/cannot connect to the database: the connection was refused/);
    expect(c.stderr).toMatch(/host and port in --store/);
    expect(c.stderr).not.toContain('secret-word');
    expect(c.stderr).not.toMatch(/\n\s+at /);
  });

  it('without ?schema= the store is the schema sitemapkit, made with its tables and its format and version', async () => {
    const s = await store(server().url);
    await s.add(urls(0, 2));
    await s.close();
    const meta = await server().query(
      'SELECT key, value FROM sitemapkit.meta WHERE key IN ($1, $2) ORDER BY key',
      ['format', 'version'],
    );
    expect(meta.rows).toEqual([
      { key: 'format', value: 'sitemapkit-store' },
      { key: 'version', value: '1' },
    ]);
    expect((await server().query('SELECT count(*)::int AS n FROM sitemapkit.urls')).rows[0]!['n']).toBe(2);
    // A store of another version is refused, not read.
    await server().query("UPDATE sitemapkit.meta SET value = '99' WHERE key = 'version'");
    const e = await openStore(server().url).catch((x: unknown) => x);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toBe(
      'the schema "sitemapkit" does not hold a sitemapkit site store of a version this release reads',
    );
  });

  it('refuses a schema that holds other tables, and a schema name that is not plain', async () => {
    await server().query('CREATE SCHEMA shop; CREATE TABLE shop.orders (id int)');
    const e = await openStore(`${server().url}?schema=shop`).catch((x: unknown) => x);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toBe(
      'the schema "shop" holds other tables and is not a sitemapkit site store',
    );
    const bad = await openStore(`${server().url}?schema=a;drop`).catch((x: unknown) => x);
    expect(isSitemapkitError(bad, 'ERR_OPTIONS')).toBe(true);
    expect((bad as Error).message).toMatch(/the store schema "a;drop" is not a plain name/);
    const reserved = await openStore(`${server().url}?schema=pg_catalog`).catch((x: unknown) => x);
    expect((reserved as Error).message).toMatch(/the store schema "pg_catalog" is reserved/);
    // The tables stay as they were.
    expect((await server().query('SELECT count(*)::int AS n FROM shop.orders')).rows[0]!['n']).toBe(0);
  });

  it('a connection lost in the middle of a build: one sentence, the store rolled back, the published files as they were', async () => {
    const dir = tempDir('sk-store-pg');
    const out = join(dir, 'out');
    const url = fresh();
    const first = await store(url, { maxUrlsPerFile: 5 });
    await first.syncAndBuild(urls(0, 12), { outDir: out });
    const before = snapshot(out);
    const statsBefore = await first.stats();
    await first.close();
    let cut = false;
    const s = await store(url, {
      onStep: async (step) => {
        if (step !== 'build:children-written' || cut) return;
        cut = true;
        await cutStoreConnections();
      },
    });
    const e = await s.syncAndBuild(urls(3, 12), { outDir: out, force: true }).catch((x: unknown) => x);
    expect(cut).toBe(true);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toMatch(
      /^the (connection to the PostgreSQL site store was lost|PostgreSQL site store failed)/,
    );
    expect((e as Error).message).not.toContain(server().password);
    const after = snapshot(out);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [name, data] of after) expect(data.equals(before.get(name)!), name).toBe(true);
    await s.close();
    await storeConnectionsGone();
    const again = await store(url, { maxUrlsPerFile: 5 });
    expect(await again.stats()).toEqual(statsBefore);
    const r = await again.syncAndBuild(urls(3, 12), { outDir: out, force: true });
    expect(r).toMatchObject({ added: 3, removed: 3 });
  });

  it('a connection lost after the files are published (at the COMMIT that records them): says they are live, and the rerun records them', async () => {
    const dir = tempDir('sk-store-pg');
    const out = join(dir, 'out');
    const url = fresh();
    // One clock for the three runs: the killed build and its rerun must date what they rewrite
    // alike however long each takes (on a loaded machine they fell in different seconds).
    const c = clock();
    const first = await store(url, { maxUrlsPerFile: 5, now: c.now });
    await first.syncAndBuild(urls(0, 12), { outDir: out });
    const statsBefore = await first.stats();
    await first.close();
    let cut = false;
    const s = await store(url, {
      now: c.now,
      onStep: async (step) => {
        if (step !== 'build:published' || cut) return;
        cut = true;
        await cutStoreConnections();
      },
    });
    const e = await s.syncAndBuild(urls(3, 12), { outDir: out, force: true }).catch((x: unknown) => x);
    expect(cut).toBe(true);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    const said = `the sitemaps in ${out} were published, but the site store could not record it: `;
    expect((e as Error).message.startsWith(said), (e as Error).message).toBe(true);
    expect((e as Error).message.slice(said.length)).toMatch(
      /^the (connection to the PostgreSQL site store was lost|PostgreSQL site store failed)/,
    );
    expect((e as { hint?: string }).hint).toMatch(/^run the same build again/);
    expect((e as Error).message).not.toContain(server().password);
    // The new set is live.
    const live = publishedUrls(out);
    expect(live).toEqual(urls(3, 12).map((u) => u.loc));
    const published = snapshot(out);
    await s.close();
    await storeConnectionsGone();
    // The store rolled back; the rerun records the same set and publishes the same bytes.
    const again = await store(url, { maxUrlsPerFile: 5, now: c.now });
    expect(await again.stats()).toEqual(statsBefore);
    const r = await again.syncAndBuild(urls(3, 12), { outDir: out, force: true });
    expect(r).toMatchObject({ added: 3, removed: 3 });
    const after = snapshot(out);
    expect([...after.keys()].sort()).toEqual([...published.keys()].sort());
    for (const [name, data] of after)
      if (name !== '.sitemapkit-manifest.json') expect(data.equals(published.get(name)!), name).toBe(true);
    await again.close();
  });

  it('a connection lost during a first import (rows sent while the next batch is read): one sentence, nothing imported', async () => {
    const url = fresh();
    let cut = false;
    const s = await store(url, {
      onStep: async (step) => {
        if (step !== 'import:batch' || cut) return;
        cut = true;
        await cutStoreConnections();
      },
    });
    const e = await s.sync(urls(0, 3500)).catch((x: unknown) => x);
    expect(cut).toBe(true);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toMatch(
      /^the (connection to the PostgreSQL site store was lost|PostgreSQL site store failed)/,
    );
    await s.close();
    await storeConnectionsGone();
    const again = await store(url);
    expect((await again.stats()).live).toBe(0);
    expect(await again.sync(urls(0, 3500))).toMatchObject({ added: 3500 });
  });
});
