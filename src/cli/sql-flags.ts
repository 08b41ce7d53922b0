/**
 * `generate --from-sql QUERY --db URL`: the flags checked before anything runs (a usage error,
 * exit 2, naming the flag), and the source they make.
 */
import { isSitemapkitError } from '../core/errors.js';
import { readSql, resolveSqlOptions } from '../sources/sql.js';
import { UsageError } from './exit.js';
import { type InputFlags, inputOptions } from './input-flags.js';

export interface SqlFlags {
  fromSql?: string;
  db?: string;
}

const DB_FORMS =
  'postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgres:// with the PG* variables), or sqlite:PATH';

/** The `--from-sql` source, or undefined without the flag; usage errors for a missing or bad flag. */
export function sqlSource(
  flags: SqlFlags & InputFlags,
  signal: AbortSignal,
): (() => AsyncIterable<unknown>) | undefined {
  if (flags.fromSql === undefined) {
    if (flags.db !== undefined)
      throw new UsageError(
        '--db names the database of --from-sql: give the query too, as in --from-sql "SELECT url AS loc FROM pages"',
      );
    return undefined;
  }
  if (flags.db === undefined) throw new UsageError(`--from-sql needs --db: ${DB_FORMS}`);
  const options = { ...inputOptions(flags), signal };
  try {
    resolveSqlOptions(flags.fromSql, flags.db, options);
  } catch (e) {
    if (!isSitemapkitError(e, 'ERR_OPTIONS')) throw e;
    const flag = /query/.test(e.message) ? '--from-sql' : /column/.test(e.message) ? '--columns' : '--db';
    throw new UsageError(`${flag}: ${e.message}; ${e.hint ?? ''}`.replace(/; $/, ''));
  }
  const query = flags.fromSql;
  const db = flags.db;
  return () => readSql(query, db, options);
}
