/**
 * The PostgreSQL side of splicing (store/splice.ts): the layouts of the published children, and
 * the rows changed since the published build. Apart from postgres.ts, which hands it its query.
 */
import type { LayoutRow, LayoutStore, PendingEntry } from './backend.js';

// Added after the first release of the format: created on open when missing.
export const LAYOUTS = `
CREATE TABLE IF NOT EXISTS layouts (
  path text PRIMARY KEY,
  file bigint NOT NULL,
  stamp text NOT NULL,
  data bytea
);
`;

type Query = <R>(text: string, values?: unknown[]) => Promise<R[]>;

export class PostgresLayouts implements LayoutStore {
  readonly #q: Query;

  constructor(query: Query) {
    this.#q = query;
  }

  /** Before rows move into `file`: the layouts of that file and of the files they leave go. */
  async moving(ids: readonly number[], file: number): Promise<void> {
    if (ids.length === 0) return;
    await this.#q(
      'DELETE FROM layouts WHERE file = $2 OR file IN (SELECT file FROM urls WHERE id = ANY($1::bigint[]))',
      [ids, file],
    );
  }

  async pendingEntries(since: number, limit: number): Promise<PendingEntry[]> {
    return this.#q(
      'SELECT id, file, fragment, loc, coalesce(input_lastmod, changed_at) AS lastmod, len, news, CASE WHEN news = 1 THEN entry END AS entry FROM urls WHERE changed > $1 ORDER BY changed, id LIMIT $2',
      [since, limit],
    );
  }

  async get(path: string): Promise<LayoutRow | undefined> {
    const rows = await this.#q<LayoutRow>('SELECT path, file, stamp, data FROM layouts WHERE path = $1', [
      path,
    ]);
    return rows[0];
  }

  async save(rows: readonly LayoutRow[], keep: readonly string[]): Promise<void> {
    await this.#q('DELETE FROM layouts WHERE NOT (path = ANY($1::text[]))', [keep]);
    if (rows.length === 0) return;
    await this.#q(
      `INSERT INTO layouts (path, file, stamp, data)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bytea[])
       ON CONFLICT (path) DO UPDATE SET file = excluded.file, stamp = excluded.stamp, data = excluded.data`,
      [
        rows.map((r) => r.path),
        rows.map((r) => r.file),
        rows.map((r) => r.stamp),
        rows.map((r) =>
          r.data === null ? null : Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
        ),
      ],
    );
  }
}
