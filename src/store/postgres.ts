/**
 * The PostgreSQL backend of the site store (`pg`, loaded only when a `postgres://` store is
 * opened): one schema per store (`?schema=NAME` in the URL, `sitemapkit` by default), created and
 * versioned like the SQLite file; one process at a time through a session advisory lock keyed on
 * the schema, so that several machines building one site never interleave. Every batch is one
 * statement over arrays (`unnest`, `= ANY`): no round trip per URL. A lost connection rolls the
 * open transaction back on the server, so the store stays as the last commit left it.
 */
import type { Client } from 'pg';
import { SitemapkitError } from '../core/errors.js';
import type {
  CompareRow,
  FeedRow,
  FileRow,
  FragmentRow,
  KnownRow,
  LightRow,
  NewUrlRow,
  PendingRow,
  PublishedRow,
  StoreBackend,
  UrlRow,
} from './backend.js';
import { PostgresLayouts } from './postgres-layouts.js';
import { type StoreReads, sqlReads } from './read.js';

// A hash index on the loc: equality is all a lookup needs, and it stays small for long URLs.
export const INDEXES = `
CREATE INDEX IF NOT EXISTS urls_loc ON urls USING hash (loc);
CREATE INDEX IF NOT EXISTS urls_file ON urls (file, id) WHERE file IS NOT NULL;
CREATE INDEX IF NOT EXISTS urls_changed ON urls (changed, id);
`;

const KNOWN =
  'id, loc, section, file, hash, input_lastmod AS "inputLastmod", changed_at AS "changedAt", first_seen AS "firstSeen", len, news, born, changed, removed_at AS "removedAt"';
const COLUMNS = `${KNOWN}, entry, fragment`;
const LIGHT = 'id, file, len, news, born';
const CHANGE = `CASE WHEN file IS NULL THEN 'removed' WHEN born > $1 THEN 'added' ELSE 'changed' END`;
/** Live ids read a page at a time when a full-set sync looks for the URLs it did not see. */
const ID_PAGE = 50_000;

/** The columns a batch writes after the id, each with its field and array type (insert and update). */
const ROW_COLUMNS: ReadonlyArray<readonly [column: string, field: keyof NewUrlRow, type: string]> = [
  ['loc', 'loc', 'text'],
  ['section', 'section', 'text'],
  ['file', 'file', 'bigint'],
  ['hash', 'hash', 'text'],
  ['input_lastmod', 'inputLastmod', 'text'],
  ['changed_at', 'changedAt', 'text'],
  ['first_seen', 'firstSeen', 'text'],
  ['len', 'len', 'bigint'],
  ['news', 'news', 'int'],
  ['entry', 'entry', 'text'],
  ['fragment', 'fragment', 'text'],
  ['born', 'born', 'bigint'],
  ['changed', 'changed', 'bigint'],
  ['removed_at', 'removedAt', 'text'],
];

/** `unnest($1::bigint[], $2::…[], …)` over the id and the columns `from` on. */
function unnestOf(columns: typeof ROW_COLUMNS): string {
  return `unnest($1::bigint[], ${columns.map(([, , type], i) => `$${i + 2}::${type}[]`).join(', ')})`;
}

/** The parameters of {@link unnestOf}: the ids, then one array a column. */
function columnArrays(
  ids: readonly number[],
  rows: readonly NewUrlRow[],
  columns: typeof ROW_COLUMNS,
): unknown[] {
  return [ids, ...columns.map(([, field]) => rows.map((r) => r[field]))];
}

/**
 * A stored W3C Datetime as epoch milliseconds, as SQLite's julianday() reads it (sqlite.ts): a
 * date alone is midnight UTC, a date and time carries its zone, and a year or a year and month
 * alone count as no time (NULL), so both backends order the feed and judge lastmods alike.
 */
function epochMs(col: string): string {
  return `(CASE WHEN ${col} ~ '^\\d{4}-\\d{2}-\\d{2}$' THEN extract(epoch FROM (${col} || 'T00:00:00Z')::timestamptz) * 1000
    WHEN ${col} ~ '^\\d{4}-\\d{2}-\\d{2}T' THEN extract(epoch FROM ${col}::timestamptz) * 1000 END)`;
}

/** A failed statement or a lost connection, in one sentence naming the store (without its password). */
export function failure(cause: unknown, shown: string): SitemapkitError {
  const e = cause as { code?: string; message?: string };
  const message = e.message ?? String(cause);
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
    return new SitemapkitError(
      'ERR_STATE',
      `the PostgreSQL site store failed: ${message} (SQLSTATE ${e.code})`,
      {
        where: shown,
        cause,
        hint: 'nothing of this run was kept (its transaction rolled back); check the server log, then run the command again',
      },
    );
  }
  return new SitemapkitError(
    'ERR_STATE',
    `the connection to the PostgreSQL site store was lost: ${message}`,
    {
      where: shown,
      cause,
      hint: 'nothing of this run was kept (its transaction rolled back) and the published files are as they were; run the command again',
    },
  );
}

export class PostgresBackend implements StoreBackend {
  readonly #c: Client;
  readonly #shown: string;
  #depth = 0;
  #closed = false;
  /** An INSERT sent but not yet awaited (see `insert`); every later statement waits for it first. */
  #inflight: Promise<unknown> | undefined;
  readonly layouts: PostgresLayouts = new PostgresLayouts((text, values) => this.#q(text, values));

  constructor(client: Client, shown: string) {
    this.#c = client;
    this.#shown = shown;
  }

  /** Waits for the INSERT in flight, so that its failure is reported by the next statement. */
  async #settle(): Promise<void> {
    const p = this.#inflight;
    if (p === undefined) return;
    this.#inflight = undefined;
    try {
      await p;
    } catch (cause) {
      throw failure(cause, this.#shown);
    }
  }

  async #q<R>(text: string, values: unknown[] = []): Promise<R[]> {
    await this.#settle();
    try {
      return (await this.#c.query({ text, values })).rows as R[];
    } catch (cause) {
      throw failure(cause, this.#shown);
    }
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    // Nested calls join the outer transaction (a sync and a build as one unit).
    if (this.#depth > 0) return fn();
    await this.#q('BEGIN');
    this.#depth++;
    try {
      const out = await fn();
      await this.#q('COMMIT');
      return out;
    } catch (error) {
      await this.#settle().catch(() => undefined);
      // On a lost connection the server has rolled back already.
      await this.#c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      this.#depth--;
    }
  }

  /**
   * A bulk load into an empty store: the indexes go while rows are inserted and are built once
   * after (inside the transaction: a crash brings them back with the empty table).
   */
  async bulk<T>(fn: () => Promise<T>): Promise<T> {
    await this.#q('DROP INDEX urls_loc, urls_file, urls_changed');
    const out = await fn();
    await this.#q(INDEXES);
    await this.#q('ANALYZE urls');
    return out;
  }

  async getMeta(key: string): Promise<string | undefined> {
    return (await this.#q<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]))[0]?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.#q(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    );
  }

  async lookup(locs: readonly string[]): Promise<Map<string, KnownRow>> {
    const out = new Map<string, KnownRow>();
    if (locs.length === 0) return out;
    for (const r of await this.#q<KnownRow>(`SELECT ${KNOWN} FROM urls WHERE loc = ANY($1::text[])`, [locs]))
      out.set(r.loc, r);
    return out;
  }

  async compare(locs: readonly string[]): Promise<Map<string, CompareRow>> {
    const out = new Map<string, CompareRow>();
    if (locs.length === 0) return out;
    for (const r of await this.#q<CompareRow>(
      'SELECT id, loc, hash, input_lastmod AS "inputLastmod", section, file FROM urls WHERE loc = ANY($1::text[])',
      [locs],
    ))
      out.set(r.loc, r);
    return out;
  }

  async rows(ids: readonly number[]): Promise<Map<number, KnownRow>> {
    const out = new Map<number, KnownRow>();
    if (ids.length === 0) return out;
    for (const r of await this.#q<KnownRow>(`SELECT ${KNOWN} FROM urls WHERE id = ANY($1::bigint[])`, [ids]))
      out.set(r.id, r);
    return out;
  }

  async unseen(seen: (id: number) => boolean): Promise<LightRow[]> {
    // The ids alone, a page at a time over the file index; whole rows only for the URLs gone.
    const gone: number[] = [];
    let after = 0;
    for (;;) {
      const page = await this.#q<{ id: number }>(
        'SELECT id FROM urls WHERE file IS NOT NULL AND id > $1 ORDER BY id LIMIT $2',
        [after, ID_PAGE],
      );
      for (const { id } of page) if (!seen(id)) gone.push(id);
      if (page.length < ID_PAGE) break;
      after = page.at(-1)!.id;
    }
    const out: LightRow[] = [];
    for (let i = 0; i < gone.length; i += ID_PAGE) {
      out.push(
        ...(await this.#q<LightRow>(`SELECT ${LIGHT} FROM urls WHERE id = ANY($1::bigint[]) ORDER BY id`, [
          gone.slice(i, i + ID_PAGE),
        ])),
      );
    }
    return out;
  }

  async insert(rows: readonly NewUrlRow[]): Promise<number[]> {
    if (rows.length === 0) return [];
    // Ids are taken first, so that each row's id is known without relying on RETURNING's order;
    // the lock makes them ascending in the order the rows came.
    const ids = (
      await this.#q<{ id: number }>("SELECT nextval('urls_id') AS id FROM generate_series(1, $1)", [
        rows.length,
      ])
    )
      .map((r) => r.id)
      .sort((a, b) => a - b);
    // Not awaited: the server inserts while the importer prepares the next batch (the ids are
    // known already). The next statement, COMMIT included, waits for it and reports its failure.
    await this.#settle();
    const sent = this.#c.query(
      `INSERT INTO urls (id, ${ROW_COLUMNS.map(([c]) => c).join(', ')}) SELECT * FROM ${unnestOf(ROW_COLUMNS)}`,
      columnArrays(ids, rows, ROW_COLUMNS),
    );
    // Handled here so that a failure before the next statement is not an unhandled rejection.
    sent.catch(() => undefined);
    this.#inflight = sent;
    return ids;
  }

  async update(rows: readonly UrlRow[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = ROW_COLUMNS.filter(([c]) => c !== 'loc');
    await this.#q(
      `UPDATE urls u SET ${columns.map(([c]) => `${c} = v.${c}`).join(', ')}
       FROM ${unnestOf(columns)} AS v(id, ${columns.map(([c]) => c).join(', ')})
       WHERE u.id = v.id`,
      columnArrays(
        rows.map((r) => r.id),
        rows,
        columns,
      ),
    );
  }

  async deleteIds(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.#q('DELETE FROM urls WHERE id = ANY($1::bigint[])', [ids]);
  }

  async move(ids: readonly number[], file: number): Promise<void> {
    await this.layouts.moving(ids, file);
    if (ids.length > 0) await this.#q('UPDATE urls SET file = $2 WHERE id = ANY($1::bigint[])', [ids, file]);
  }

  async liveRows(after: number, limit: number): Promise<UrlRow[]> {
    return this.#q(`SELECT ${COLUMNS} FROM urls WHERE file IS NOT NULL AND id > $1 ORDER BY id LIMIT $2`, [
      after,
      limit,
    ]);
  }

  async scan(after: number, limit: number): Promise<LightRow[]> {
    return this.#q(`SELECT ${LIGHT} FROM urls WHERE id > $1 ORDER BY id LIMIT $2`, [after, limit]);
  }

  async bury(ids: readonly number[], at: string, gen: number): Promise<void> {
    if (ids.length === 0) return;
    await this.#q('UPDATE urls SET file = NULL, removed_at = $2, changed = $3 WHERE id = ANY($1::bigint[])', [
      ids,
      at,
      gen,
    ]);
  }

  async fragments(file: number, after: number, limit: number): Promise<FragmentRow[]> {
    return this.#q(
      'SELECT id, fragment, loc, coalesce(input_lastmod, changed_at) AS lastmod, len, news, CASE WHEN news = 1 THEN entry END AS entry FROM urls WHERE file = $1 AND id > $2 ORDER BY id LIMIT $3',
      [file, after, limit],
    );
  }

  async newestUrls(firstBuild: number, limit: number): Promise<FeedRow[]> {
    return this.#q<FeedRow>(
      `SELECT loc, time, entry FROM (
         SELECT loc, entry, coalesce(input_lastmod,
           CASE WHEN news = 1 THEN entry::json #>> '{news,publication_date}' END,
           changed_at, CASE WHEN born > $1 THEN first_seen END) AS time
         FROM urls WHERE file IS NOT NULL) AS t
       WHERE time IS NOT NULL ORDER BY ${epochMs('time')} DESC NULLS LAST, loc COLLATE "C" LIMIT $2`,
      [firstBuild, limit],
    );
  }

  async inputLastmods(
    buildMs: number,
    nearMs: number,
  ): Promise<{ count: number; first: string | null; same: boolean; near: boolean }> {
    const [r] = await this.#q<{ count: string; first: string | null; last: string | null; far: string }>(
      `SELECT count(*) AS count, min(input_lastmod COLLATE "C") AS first, max(input_lastmod COLLATE "C") AS last,
         coalesce(sum(CASE WHEN abs(${epochMs('input_lastmod')} - $1) <= $2 THEN 0 ELSE 1 END), 0) AS far
       FROM urls WHERE file IS NOT NULL AND input_lastmod IS NOT NULL`,
      [buildMs, nearMs],
    );
    return {
      count: Number(r!.count),
      first: r!.first,
      same: r!.first === r!.last,
      near: Number(r!.far) === 0,
    };
  }

  async tombstones(after: number, limit: number): Promise<UrlRow[]> {
    return this.#q(`SELECT ${COLUMNS} FROM urls WHERE file IS NULL AND id > $1 ORDER BY id LIMIT $2`, [
      after,
      limit,
    ]);
  }

  async pending(since: number, after: { gen: number; id: number }, limit: number): Promise<PendingRow[]> {
    // One range of the (changed, id) index: the row comparison walks it from the page key on.
    const from = after.gen <= since ? { gen: since + 1, id: 0 } : after;
    return this.#q(
      `SELECT id, changed AS gen, loc, ${CHANGE} AS change,
         CASE WHEN file IS NULL THEN NULL ELSE coalesce(input_lastmod, changed_at) END AS lastmod,
         coalesce(removed_at, changed_at, first_seen) AS at
       FROM urls WHERE changed > $1 AND (changed, id) > ($2, $3) ORDER BY changed, id LIMIT $4`,
      [since, from.gen, from.id, limit],
    );
  }

  async countPending(since: number): Promise<Record<PendingRow['change'], number>> {
    const out = { added: 0, changed: 0, removed: 0 };
    for (const r of await this.#q<{ change: PendingRow['change']; n: number }>(
      `SELECT ${CHANGE} AS change, count(*) AS n FROM urls WHERE changed > $1 GROUP BY 1`,
      [since],
    ))
      out[r.change] = r.n;
    return out;
  }

  async countRemovedSince(since: number): Promise<number> {
    return (
      await this.#q<{ n: number }>('SELECT count(*) AS n FROM urls WHERE file IS NULL AND changed > $1', [
        since,
      ])
    )[0]!.n;
  }

  async purge(before: string, published: number): Promise<number> {
    const gone = await this.#q<{ n: number }>(
      'WITH d AS (DELETE FROM urls WHERE file IS NULL AND removed_at < $1 AND changed <= $2 RETURNING 1) SELECT count(*) AS n FROM d',
      [before, published],
    );
    return gone[0]!.n;
  }

  async files(): Promise<FileRow[]> {
    // Byte order of the section, as SQLite sorts it (not the database's collation).
    return this.#q(
      'SELECT id, section, num, urls, bytes, news, changed FROM files ORDER BY section COLLATE "C", num',
    );
  }

  async saveFiles(rows: readonly FileRow[], deleted: readonly number[]): Promise<void> {
    if (deleted.length > 0) await this.#q('DELETE FROM files WHERE id = ANY($1::bigint[])', [deleted]);
    if (rows.length === 0) return;
    const col = <K extends keyof FileRow>(k: K): Array<FileRow[K]> => rows.map((r) => r[k]);
    await this.#q(
      `INSERT INTO files (id, section, num, urls, bytes, news, changed)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bigint[], $5::bigint[], $6::int[], $7::bigint[])
       ON CONFLICT (id) DO UPDATE SET section = excluded.section, num = excluded.num, urls = excluded.urls,
         bytes = excluded.bytes, news = excluded.news, changed = excluded.changed`,
      [col('id'), col('section'), col('num'), col('urls'), col('bytes'), col('news'), col('changed')],
    );
  }

  async published(): Promise<PublishedRow[]> {
    return this.#q(
      'SELECT path, sha256, size, disk, bytes, urls, lastmod FROM published ORDER BY path COLLATE "C"',
    );
  }

  async setPublished(rows: readonly PublishedRow[]): Promise<void> {
    await this.#q('DELETE FROM published');
    if (rows.length === 0) return;
    const col = <K extends keyof PublishedRow>(k: K): Array<PublishedRow[K]> => rows.map((r) => r[k]);
    await this.#q(
      `INSERT INTO published (path, sha256, size, disk, bytes, urls, lastmod)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::text[])`,
      [col('path'), col('sha256'), col('size'), col('disk'), col('bytes'), col('urls'), col('lastmod')],
    );
  }

  reads(): StoreReads {
    return sqlReads((text, values) => this.#q(text, values));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#settle().catch(() => undefined);
    // Ending the session releases the advisory lock (and rolls back anything left open).
    await this.#c.end().catch(() => undefined);
  }
}
