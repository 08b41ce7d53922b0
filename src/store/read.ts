/**
 * The store's read path for serving: its live files (names as a build publishes them) and each
 * file's entries in file order, a page at a time. Every read is one SQL statement that also reads
 * the store's generation, so it is one snapshot in both databases; a file read across pages checks
 * that the generation did not move between them (a writer that committed in between would mix two
 * versions of the file), and fails with `ERR_BUSY` (retryable) when it did.
 */

import type BetterSqlite3 from 'better-sqlite3';
import type { SitemapEntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { childName } from './build.js';
import type { EntryReadRow, FileReadRow, StoreReads } from './read-types.js';

export type { EntryReadRow, FileReadRow, StoreReads };

/** A file of the store as `SiteStore.files()` gives it. */
export interface StoreFile {
  /** The name a store build publishes it under, without extension (`sitemap-00003`, `sitemap-blog-00001`). */
  name: string;
  /** '' for none. */
  section: string;
  urls: number;
  /** Changes when (and only when) the file's content changes: the generation that last changed it. */
  version: number;
  /**
   * The lastmod the last build's index gave the file, when that build published its current
   * content (nothing changed it since); else absent.
   */
  lastmod?: string;
}

const PAGE = 5000;

/** The live files in the order a build's index lists them: no section first, then by section, by number. */
export async function readFiles(reads: StoreReads): Promise<{ generation: number; files: StoreFile[] }> {
  const { generation, files } = await reads.files();
  // Read after the files: a build that commits in between dates a file by a build that published
  // it at the latest content read or later (a lastmod too new, never one too old).
  const published = await reads.published?.();
  const dates = new Map(published?.files.map((p) => [p.path, p.lastmod]));
  const dateOf = (f: FileReadRow, name: string): string | undefined => {
    if (published === undefined || f.changed > published.generation) return undefined;
    for (const ext of ['xml', 'xml.gz', 'txt', 'txt.gz']) {
      const d = dates.get(`${name}.${ext}`);
      if (d !== undefined) return d;
    }
    return undefined;
  };
  const live = files.filter((f) => f.urls > 0);
  live.sort((a, b) =>
    a.section === b.section
      ? a.num - b.num
      : a.section === ''
        ? -1
        : b.section === ''
          ? 1
          : a.section < b.section
            ? -1
            : 1,
  );
  return {
    generation,
    files: live.map((f) => {
      const name = childName(f, 'x').slice(0, -2);
      const lastmod = dateOf(f, name);
      const file: StoreFile = { name, section: f.section, urls: f.urls, version: f.changed };
      if (lastmod !== undefined) file.lastmod = lastmod;
      return file;
    }),
  };
}

export function changedWhileRead(where: string): SitemapkitError {
  return new SitemapkitError('ERR_BUSY', 'the site store changed while a file was read from it', {
    where,
    hint: 'read it again: the next read sees the new version',
  });
}

/**
 * The entries of the file named `name` (as `readFiles` names it), in file order, streamed a page
 * at a time. Throws `ERR_STATE` for a name the store does not have, `ERR_BUSY` when the store
 * changed (or a writer holds it) during the read.
 */
export async function* readFileEntries(
  reads: StoreReads,
  name: string,
  where: string,
): AsyncGenerator<SitemapEntryInput, void, undefined> {
  const { generation, files } = await reads.files();
  const f = files.find((x) => x.urls > 0 && childName(x, 'x').slice(0, -2) === name);
  if (f === undefined)
    throw new SitemapkitError('ERR_STATE', `the site store has no file ${name}`, {
      where,
      hint: 'list its files with files()',
    });
  let after = 0;
  for (;;) {
    const page = await reads.entries(f.id, after, PAGE);
    if (page.generation !== generation) throw changedWhileRead(where);
    if (page.rows.length === 0) return;
    for (const r of page.rows) {
      const e: SitemapEntryInput = r.entry === null ? { loc: r.loc } : { loc: r.loc, ...JSON.parse(r.entry) };
      if (r.lastmod !== null) e.lastmod = r.lastmod;
      yield e;
    }
    after = page.rows.at(-1)!.id;
  }
}

/** The SQL of both reads (PostgreSQL and SQLite alike; `$n` placeholders are rewritten for SQLite). */
export const READ_SQL = {
  files: `SELECT g.value AS gen, f.id, f.section, f.num, f.urls, f.changed
    FROM (SELECT coalesce((SELECT value FROM meta WHERE key = 'generation'), '0') AS value) AS g
    LEFT JOIN files AS f ON f.urls > 0`,
  entries: `SELECT g.value AS gen, u.id, u.loc, u.lastmod, u.entry
    FROM (SELECT coalesce((SELECT value FROM meta WHERE key = 'generation'), '0') AS value) AS g
    LEFT JOIN (SELECT id, loc, coalesce(input_lastmod, changed_at) AS lastmod, entry FROM urls
      WHERE file = $1 AND id > $2 ORDER BY id LIMIT $3) AS u ON true
    ORDER BY u.id`,
  published: `SELECT g.value AS pub, p.path, p.lastmod
    FROM (SELECT coalesce((SELECT value FROM meta WHERE key = 'published'), '0') AS value) AS g
    LEFT JOIN published AS p ON true`,
} as const;

type Raw = Record<string, unknown>;

/** The reads over any function that runs one statement. */
export function sqlReads(run: (sql: string, values: unknown[]) => Promise<Raw[]>): StoreReads {
  return {
    async files() {
      const rows = await run(READ_SQL.files, []);
      const files: FileReadRow[] = [];
      for (const r of rows) {
        if (r['id'] === null || r['id'] === undefined) continue;
        files.push({
          id: Number(r['id']),
          section: String(r['section']),
          num: Number(r['num']),
          urls: Number(r['urls']),
          changed: Number(r['changed']),
        });
      }
      return { generation: Number(rows[0]?.['gen'] ?? 0), files };
    },
    async entries(file, after, limit) {
      const rows = await run(READ_SQL.entries, [file, after, limit]);
      const out: EntryReadRow[] = [];
      for (const r of rows) {
        if (r['id'] === null || r['id'] === undefined) continue;
        out.push({
          id: Number(r['id']),
          loc: String(r['loc']),
          lastmod: (r['lastmod'] as string | null) ?? null,
          entry: (r['entry'] as string | null) ?? null,
        });
      }
      return { generation: Number(rows[0]?.['gen'] ?? 0), rows: out };
    },
    async published() {
      const rows = await run(READ_SQL.published, []);
      const files: Array<{ path: string; lastmod: string }> = [];
      for (const r of rows)
        if (typeof r['path'] === 'string') files.push({ path: r['path'], lastmod: String(r['lastmod']) });
      return { generation: Number(rows[0]?.['pub'] ?? 0), files };
    },
  };
}

/** `$1, $2…` as SQLite's anonymous `?` (every statement here names them in order). */
function sqliteSql(sql: string): string {
  return sql.replace(/\$\d+/g, '?');
}

/** The reads over an SQLite connection (a read-write store's own, or a reader's of one read). */
export function sqliteReadsOf(db: BetterSqlite3.Database): StoreReads {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return sqlReads(async (sql, values) => {
    let st = cache.get(sql);
    if (st === undefined) {
      st = db.prepare(sqliteSql(sql));
      cache.set(sql, st);
    }
    return st.all(...values) as Raw[];
  });
}
