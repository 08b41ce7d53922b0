/**
 * The `--db` of `--from-sql`: which database a string names, and how to name it back to the user
 * without its password (messages land in terminals and CI logs).
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { SitemapkitError } from '../core/errors.js';

/** A database `readSql` can read. */
export type SqlDatabase =
  | { kind: 'postgres'; url: string; shown: string }
  | { kind: 'sqlite'; path: string; shown: string };

const DB_FORMS =
  'Give postgres://USER:PASSWORD@HOST:PORT/DATABASE (postgresql:// too; parts left out come from the PG* environment variables, so postgres:// alone uses them all), sqlite:PATH, or the path of an existing SQLite file.';

/** A `postgres://` URL with its password replaced by `***` (and left as it is when it cannot be read). */
export function redactDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    // A password can also ride in the query (`?password=`), which libpq accepts.
    if (u.searchParams.has('password')) u.searchParams.set('password', '***');
    return u.href;
  } catch {
    // Unparsable: still hide whatever sits between the scheme's `//` and an `@`.
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
}

/** Whether a file starts with SQLite's header ("SQLite format 3\0"). */
function isSqliteFile(path: string): boolean {
  let fd: number | undefined;
  try {
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
    const head = Buffer.alloc(16);
    readSync(fd, head, 0, 16, 0);
    return head.toString('latin1') === 'SQLite format 3\0';
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads `--db`: `postgres://…` / `postgresql://…`; `sqlite:PATH` (`sqlite:///abs/path` too); or
 * the path of an existing SQLite file. Throws `ERR_OPTIONS` for anything else.
 */
export function resolveDatabase(db: string): SqlDatabase {
  const s = db.trim();
  if (/^postgres(?:ql)?:\/\//i.test(s)) {
    // The driver parses it with the WHATWG URL parser too; failing here names the flag, not the driver.
    if (!URL.canParse(s)) {
      throw new SitemapkitError('ERR_OPTIONS', `the database URL "${redactDatabaseUrl(s)}" cannot be read`, {
        hint: 'Give postgres://USER:PASSWORD@HOST:PORT/DATABASE; percent-encode special characters in the password (@ as %40, / as %2F, : as %3A).',
      });
    }
    return { kind: 'postgres', url: s, shown: redactDatabaseUrl(s) };
  }
  if (/^sqlite:/i.test(s)) {
    const path = s.replace(/^sqlite:(?:\/\/)?/i, '');
    if (path === '') {
      throw new SitemapkitError('ERR_OPTIONS', 'the database "sqlite:" names no file', {
        hint: 'Give sqlite:PATH, such as sqlite:site.db or sqlite:///var/lib/site.db.',
      });
    }
    if (!existsSync(path)) {
      // Opening a missing file would create an empty database, and "no such table" would then mislead.
      throw new SitemapkitError('ERR_INPUT', 'no such SQLite file', {
        where: path,
        hint: 'Give the path of an existing SQLite database file.',
      });
    }
    return { kind: 'sqlite', path, shown: path };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `the database "${redactDatabaseUrl(s)}" is not one sitemapkit reads`,
      { hint: DB_FORMS },
    );
  }
  if (isSqliteFile(s)) return { kind: 'sqlite', path: s, shown: s };
  throw new SitemapkitError(
    'ERR_OPTIONS',
    existsSync(s)
      ? `"${s}" is not a SQLite database file`
      : `the database "${s}" is neither a postgres:// URL nor an existing SQLite file`,
    { hint: DB_FORMS },
  );
}
