/**
 * `--from-sql` against a real PostgreSQL (the throwaway cluster of test/support/postgres.ts) and
 * real SQLite files: types, NULLs, a cursor over 20,000 rows, bad rows, and every failure a user
 * meets (connection, password, database, table, syntax, a write) as one sentence without the password.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { readSql, redactDatabaseUrl } from '../../src/sources/index.js';
import { ORIGIN } from '../../src/writer/write-sitemaps.js';
import { BIN, cli, runBin, runProcess } from '../support/cli.js';
import { eventually, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { xmllint } from '../support/xmllint.js';
import { all, failure } from './helpers.js';

const BASE = 'https://example.com/';

/** A record's fields without its origin. */
function fieldsOf(r: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r));
}

function generate(query: string, db: string, out: string, ...extra: string[]): ReturnType<typeof cli> {
  return cli(['generate', '--from-sql', query, '--db', db, '--base-url', BASE, '--out', out, ...extra]);
}

describe('--from-sql on PostgreSQL', () => {
  const server = usePostgres();
  /** The one number a query returns (`SELECT count(*) AS n …`). */
  const count = async (sql: string): Promise<number> =>
    Number((await server().query<{ n: string | number }>(sql)).rows[0]!.n);
  /** The database as messages name it. */
  const shown = () => `postgres://postgres@127.0.0.1:${server().port}/sitemapkit`;

  it('reads PostgreSQL types right, and NULL is an absent field', async () => {
    await server().query(`
      CREATE TABLE typed (
        id int, url text, changed timestamptz, plain timestamp, day date, prio numeric(2,1),
        score float8, pics text[], freq text, sect text, de text, is_mobile boolean, epoch bigint);
      INSERT INTO typed VALUES
        (1, 'https://example.com/a', '2024-03-01 12:30:00+02', '2024-03-01 10:00:00.25', '2024-02-29', 0.8,
         0.25, ARRAY['https://example.com/1.png', NULL, 'https://example.com/2.png'], 'daily', 'news',
         'https://example.com/de/a', true, 1700000000),
        (2, 'https://example.com/b', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);`);
    const rows = await all(
      readSql(
        `SELECT url AS loc, changed AS lastmod, prio AS priority, pics AS images, freq AS changefreq,
                sect AS section, de AS "hreflang:de", is_mobile AS mobile FROM typed ORDER BY id`,
        server().url,
      ),
    );
    expect(rows.map(fieldsOf)).toEqual([
      {
        loc: 'https://example.com/a',
        lastmod: '2024-03-01T10:30:00Z',
        priority: '0.8',
        images: ['https://example.com/1.png', 'https://example.com/2.png'],
        changefreq: 'daily',
        section: 'news',
        alternates: [{ hreflang: 'de', href: 'https://example.com/de/a' }],
        mobile: true,
      },
      { loc: 'https://example.com/b' },
    ]);
    expect(rows.map((r) => r[ORIGIN])).toEqual([
      { file: `<sql ${shown()}>`, line: 1 },
      { file: `<sql ${shown()}>`, line: 2 },
    ]);
    // A timestamp without a zone is UTC, whatever the zone of this machine; a date stays a date;
    // floats are priorities; a bigint is epoch seconds.
    const times = await all(
      readSql('SELECT url AS loc, plain AS lastmod, score AS priority FROM typed WHERE id = 1', server().url),
    );
    expect(times.map(fieldsOf)).toEqual([
      { loc: 'https://example.com/a', lastmod: '2024-03-01T10:00:00.25Z', priority: 0.25 },
    ]);
    const days = await all(
      readSql('SELECT url AS loc, day AS lastmod FROM typed WHERE id = 1', server().url),
    );
    expect(days.map(fieldsOf)).toEqual([{ loc: 'https://example.com/a', lastmod: '2024-02-29' }]);
    const epochs = await all(
      readSql('SELECT url AS loc, epoch AS lastmod FROM typed WHERE id = 1', server().url),
    );
    expect(epochs.map(fieldsOf)).toEqual([{ loc: 'https://example.com/a', lastmod: 1700000000 }]);
  });

  it('generate --from-sql writes valid sitemaps from the rows', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const r = await generate(
      `SELECT url AS loc, changed AS lastmod, prio AS priority, pics AS images FROM typed ORDER BY id`,
      server().url,
      out,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote 2 URLs in 1 file');
    const xml = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    expect(xml).toContain(
      '<loc>https://example.com/a</loc><lastmod>2024-03-01T10:30:00Z</lastmod><priority>0.8</priority>',
    );
    expect(xml).toContain('<image:loc>https://example.com/2.png</image:loc>');
    const lint = xmllint(join(out, 'sitemap.xml'));
    expect(lint.ok, lint.output).toBe(true);
  });

  it('reads 20,000 rows through a server-side cursor: the server computes rows only as they are fetched', async () => {
    // Row 15,000 takes an advisory lock (allowed in a READ ONLY transaction) as it is computed. With
    // a cursor the lock is not there while the first rows are read; a plain query would have
    // computed every row before the first one arrived.
    const query = `SELECT 'https://example.com/p' || n
        || CASE WHEN n = 15000 AND pg_try_advisory_lock(4242) THEN '' ELSE '' END AS loc
      FROM generate_series(1, 20000) AS n`;
    const held = () =>
      count("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242");
    let n = 0;
    const seen: number[] = [];
    for await (const r of readSql(query, server().url, { batchRows: 500 })) {
      n++;
      if (n === 100 || n === 16_000) seen.push(await held());
      expect(r['loc']).toBe(`https://example.com/p${n}`);
    }
    expect(n).toBe(20_000);
    expect(seen).toEqual([0, 1]);
    await eventually(async () => (await held()) === 0); // the connection is closed at the end
  });

  it('a reader that stops early closes its cursor and connection', async () => {
    const sessions = () =>
      count("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'sitemapkit'");
    const before = await sessions();
    for await (const _ of readSql(
      "SELECT 'https://example.com/' || n AS loc FROM generate_series(1, 10000) n",
      server().url,
    ))
      break;
    // The server ends the backend just after the client closed the socket.
    await eventually(async () => (await sessions()) === before);
  });

  it('an interrupt cancels the running query on the server and ends the reader with ERR_ABORTED', async () => {
    const controller = new AbortController();
    const reading = failure(
      all(
        readSql("SELECT 'https://example.com/' || pg_sleep(600) AS loc", server().url, {
          signal: controller.signal,
        }),
      ),
    );
    const running = () =>
      count(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'sitemapkit' AND query LIKE '%pg_sleep(600)%'",
      );
    await eventually(async () => (await running()) === 1);
    controller.abort();
    const e = await reading;
    expect(e.code).toBe('ERR_ABORTED');
    // Without the cancel the server would sleep on for ten minutes after the client left.
    await eventually(async () => (await running()) === 0);
  });

  it('Ctrl-C during a long query: exit 130, and the query is cancelled on the server', async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'generate',
        '--from-sql',
        "SELECT 'https://example.com/' || pg_sleep(601) AS loc",
        '--db',
        server().url,
        '--base-url',
        BASE,
        '--out',
        join(tempDir(), 'o'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const running = () =>
      count(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'sitemapkit' AND query LIKE '%pg_sleep(601)%'",
      );
    await eventually(async () => (await running()) === 1);
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    // One line, and no warning of the driver (pg's own cancel() prints a DeprecationWarning).
    expect(stderr).toBe('sitemapkit: interrupted\n');
    await eventually(async () => (await running()) === 0);
  });

  it('a bad row is named by its row number and column, like a CSV line', async () => {
    const dir = tempDir();
    const r = await generate(
      `SELECT * FROM (VALUES ('https://example.com/1', 0.5), ('https://example.com/2', 0.5), ('https://example.com/3', 2.0))
         AS t(loc, priority)`,
      server().url,
      join(dir, 'out'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `<sql ${shown()}>:3: error priority-invalid (priority): priority "2.0" is not a number from 0.0 to 1.0`,
    );
    expect(r.stderr).not.toContain(server().password);
  });

  it('the result must name a loc column, and unknown columns are refused unless left out', async () => {
    const dir = tempDir();
    const noLoc = await generate("SELECT 'https://example.com/' AS path", server().url, join(dir, 'o'));
    expect(noLoc.code).toBe(2);
    expect(noLoc.stderr).toContain(
      `${shown()}: the query's result must have a loc (or url) column; it has "path"`,
    );
    expect(noLoc.stderr).toContain('SELECT path AS loc');
    const onlyFields = await generate('SELECT 0.5 AS priority', server().url, join(dir, 'o'));
    expect(onlyFields.stderr).toContain('SELECT your_url_column AS loc');
    const extra = await generate(
      "SELECT 'https://example.com/' AS loc, 3 AS id",
      server().url,
      join(dir, 'o'),
    );
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('the query returns the unknown column "id"');
    const ignored = await generate(
      "SELECT 'https://example.com/' AS loc, 3 AS id",
      server().url,
      join(dir, 'o'),
      '--extra-columns',
      'ignore',
    );
    expect(ignored.code, ignored.stderr).toBe(0);
    const mapped = await generate(
      "SELECT 'https://example.com/' AS path",
      server().url,
      join(dir, 'o'),
      '--columns',
      'loc=path',
    );
    expect(mapped.code, mapped.stderr).toBe(0);
  });

  it('runs in a READ ONLY transaction: a query that writes fails and changes nothing', async () => {
    await server().query("CREATE TABLE keep (url text); INSERT INTO keep VALUES ('https://example.com/k')");
    const dir = tempDir();
    const r = await generate(
      'WITH d AS (DELETE FROM keep RETURNING url) SELECT url AS loc FROM d',
      server().url,
      join(dir, 'o'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `sitemapkit: ${shown()}: the query tries to change the database (cannot execute `,
    );
    expect(r.stderr).toContain('READ ONLY');
    expect(await count('SELECT count(*) AS n FROM keep')).toBe(1);
    const two = await generate(
      "SELECT 'https://example.com/' AS loc; DROP TABLE keep",
      server().url,
      join(dir, 'o'),
    );
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('the query holds more than one statement');
  });

  it('a missing table, a syntax error, a missing database: one sentence naming the database, exit 2', async () => {
    const dir = tempDir();
    const out = join(dir, 'o');
    const table = await generate('SELECT url AS loc FROM nowhere', server().url, out);
    expect(table.code).toBe(2);
    expect(table.stderr).toContain(
      `sitemapkit: ${shown()}: the query fails: relation "nowhere" does not exist at character 24 ("nowhere") [ERR_INPUT]`,
    );
    const syntax = await generate('SELECT url AS loc FORM pages', server().url, out);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain(
      `${shown()}: the query has a syntax error at or near "FORM" at character 19 ("FORM pages")`,
    );
    const db = await generate('SELECT 1 AS loc', server().urlOf('nosuchdb'), out);
    expect(db.code).toBe(2);
    expect(db.stderr).toContain(
      `postgres://postgres@127.0.0.1:${server().port}/nosuchdb: there is no such database`,
    );
    for (const r of [table, syntax, db]) {
      expect(r.stderr.trim().split('\n')).toHaveLength(2); // the sentence and its advice, no stack
      expect(r.stderr).not.toContain(server().password);
    }
  });

  it('a refused password and a refused connection never show the password', async () => {
    const dir = tempDir();
    const s = server();
    const wrong = await generate(
      'SELECT 1 AS loc',
      `postgres://postgres:hunter2secret@127.0.0.1:${s.port}/sitemapkit`,
      join(dir, 'o'),
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      `sitemapkit: ${shown()}: the server refused the login (password authentication failed for user "postgres") [ERR_INPUT]`,
    );
    expect(wrong.stderr).not.toContain('hunter2secret');
    const none = await generate(
      'SELECT 1 AS loc',
      `postgres://postgres@127.0.0.1:${s.port}/sitemapkit`,
      join(dir, 'o'),
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the server asks for a password and none was given');
    // A port nothing listens on: the cluster's own port once stopped is not known to be free, so take a closed one.
    const closed = await generate(
      'SELECT 1 AS loc',
      'postgres://u:hunter2secret@127.0.0.1:1/db',
      join(dir, 'o'),
    );
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain(
      'sitemapkit: postgres://u@127.0.0.1:1/db: cannot connect to the database: the connection was refused [ERR_INPUT]',
    );
    expect(closed.stderr).not.toContain('hunter2secret');
  });

  it('reads sslmode as psql does, without a warning on stderr', async () => {
    const dir = tempDir();
    // A real process, so that a warning the driver prints would be seen.
    const ok = await runBin([
      'generate',
      '--from-sql',
      "SELECT 'https://example.com/' AS loc",
      '--db',
      `${server().url}?sslmode=disable`,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'o'),
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.code, ok.stderr).toBe(0);
    // The throwaway server has no TLS: sslmode=require fails in one sentence, with no pg warning.
    const child = await runBin([
      'generate',
      '--from-sql',
      "SELECT 'https://example.com/' AS loc",
      '--db',
      `${server().url}?sslmode=require`,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'o'),
    ]);
    expect(child.code).toBe(2);
    expect(child.stderr).toContain(
      `sitemapkit: ${shown()}: cannot connect to the database: the server does not accept TLS connections [ERR_INPUT]`,
    );
    expect(child.stderr).not.toContain('WARNING');
    const ca = await generate(
      'SELECT 1 AS loc',
      `postgres://u:s3cret@127.0.0.1:1/db?sslmode=verify-ca`,
      join(dir, 'o'),
    );
    expect(ca.code).toBe(2);
    expect(ca.stderr).toContain(
      'sitemapkit: postgres://u:***@127.0.0.1:1/db?sslmode=verify-ca: the database URL cannot be used: SECURITY WARNING: Using sslmode=verify-ca requires specifying a CA with sslrootcert',
    );
    expect(ca.stderr).not.toContain('s3cret');
  });

  it('takes the credentials from the PG* variables when the URL leaves them out', async () => {
    const s = server();
    const saved = { ...process.env };
    Object.assign(process.env, s.env);
    try {
      const rows = await all(readSql("SELECT 'https://example.com/env' AS loc", 'postgres://'));
      expect(rows.map(fieldsOf)).toEqual([{ loc: 'https://example.com/env' }]);
    } finally {
      for (const k of Object.keys(s.env)) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });

  it('a query with no rows writes nothing (exit 1), as an empty CSV does', async () => {
    const dir = tempDir();
    const r = await generate("SELECT 'x' AS loc WHERE false", server().url, join(dir, 'o'));
    expect(r.code).toBe(1);
  });
});

describe('--from-sql on SQLite', () => {
  function sqliteFile(): string {
    const file = join(tempDir(), 'site.db');
    const db = new Database(file);
    db.exec(`CREATE TABLE pages (id INTEGER, url TEXT, updated TEXT, prio REAL, pics TEXT, draft INTEGER);
      INSERT INTO pages VALUES
        (1, 'https://example.com/a', '2024-03-01 10:00:00', 0.5, 'https://example.com/1.png|https://example.com/2.png', 0),
        (2, 'https://example.com/b', NULL, NULL, NULL, 0),
        (3, 'https://example.com/c', 'yesterday', NULL, NULL, 0),
        (4, 'https://example.com/secret', NULL, NULL, NULL, 1);`);
    db.close();
    return file;
  }

  it('reads rows from sqlite:PATH or a plain path; SQLite datetime text is UTC', async () => {
    const file = sqliteFile();
    const q =
      'SELECT url AS loc, updated AS lastmod, prio AS priority, pics AS images FROM pages WHERE draft = 0 AND id < 3 ORDER BY id';
    const expected = [
      {
        loc: 'https://example.com/a',
        lastmod: '2024-03-01T10:00:00Z',
        priority: 0.5,
        images: ['https://example.com/1.png', 'https://example.com/2.png'],
      },
      { loc: 'https://example.com/b' },
    ];
    expect((await all(readSql(q, `sqlite:${file}`))).map(fieldsOf)).toEqual(expected);
    expect((await all(readSql(q, file))).map(fieldsOf)).toEqual(expected);
    expect((await all(readSql(q, `sqlite://${file}`))).map(fieldsOf)).toEqual(expected);
  });

  it('generate names the bad row; a missing table, a write and a missing file are one sentence', async () => {
    const file = sqliteFile();
    const dir = tempDir();
    const out = join(dir, 'o');
    const bad = await generate(
      'SELECT url AS loc, updated AS lastmod FROM pages ORDER BY id',
      `sqlite:${file}`,
      out,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      `<sql ${file}>:3: error lastmod-invalid (lastmod): "yesterday" is not a W3C Datetime`,
    );
    const ok = await generate(
      'SELECT url AS loc, updated AS lastmod FROM pages ORDER BY id',
      `sqlite:${file}`,
      out,
      '--on-invalid',
      'drop-field',
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain(
      '<lastmod>2024-03-01T10:00:00Z</lastmod>',
    );
    const table = await generate('SELECT url AS loc FROM nowhere', file, out);
    expect(table.code).toBe(2);
    expect(table.stderr).toContain(
      `sitemapkit: ${file}: the query fails: no such table: nowhere [ERR_INPUT]`,
    );
    const write = await generate('DELETE FROM pages', file, out);
    expect(write.code).toBe(2);
    expect(write.stderr).toContain(`${file}: the query returns no rows`);
    const returning = await generate('DELETE FROM pages RETURNING url AS loc', file, out);
    expect(returning.code).toBe(2);
    expect(returning.stderr).toContain('readonly');
    const db = new Database(file, { readonly: true });
    expect(db.prepare('SELECT count(*) AS n FROM pages').get()).toEqual({ n: 4 });
    db.close();
    const missing = await generate('SELECT 1 AS loc', `sqlite:${join(dir, 'nope.db')}`, out);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${join(dir, 'nope.db')}: no such SQLite file`);
  });

  it('a path that is no SQLite file, and a URL of another kind, are usage errors naming the forms', async () => {
    const dir = tempDir();
    const text = join(dir, 'urls.txt');
    writeFileSync(text, 'https://example.com/\n');
    const notDb = await generate('SELECT 1 AS loc', text, join(dir, 'o'));
    expect(notDb.code).toBe(2);
    expect(notDb.stderr).toContain(`--db: "${text}" is not a SQLite database file`);
    const mysql = await generate('SELECT 1 AS loc', 'mysql://root:pw@localhost/shop', join(dir, 'o'));
    expect(mysql.code).toBe(2);
    expect(mysql.stderr).toContain(
      '--db: the database "mysql://root:***@localhost/shop" is not one sitemapkit reads',
    );
    expect(mysql.stderr).not.toContain(':pw@');
  });
});

describe('--from-sql flags and URLs', () => {
  it('--from-sql needs --db, and --db needs --from-sql', async () => {
    const a = await cli(['generate', '--from-sql', 'SELECT 1', '--base-url', BASE, '--out', tempDir()]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--from-sql needs --db');
    const b = await cli(['generate', '--db', 'sqlite:x.db', '--base-url', BASE, '--out', tempDir()]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('--db names the database of --from-sql');
    const c = await cli([
      'generate',
      '--from-sql',
      ' ',
      '--db',
      'postgres://h/db',
      '--base-url',
      BASE,
      '--out',
      tempDir(),
    ]);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('--from-sql: the query is empty');
  });

  it('a database URL that cannot be read is a usage error that hides the password', async () => {
    const r = await cli([
      'generate',
      '--from-sql',
      'SELECT 1',
      '--db',
      'postgres://u:s3cret@[bad/db',
      '--base-url',
      BASE,
      '--out',
      tempDir(),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--db: the database URL "postgres://***@[bad/db" cannot be read');
    expect(r.stderr).not.toContain('s3cret');
  });

  it('redacts passwords in database URLs', () => {
    expect(redactDatabaseUrl('postgres://app:s3cret@db.example:5432/shop')).toBe(
      'postgres://app:***@db.example:5432/shop',
    );
    expect(redactDatabaseUrl('postgres://app@db/shop?password=s3cret&sslmode=require')).toBe(
      'postgres://app@db/shop?password=***&sslmode=require',
    );
    expect(redactDatabaseUrl('postgres://app@db/shop')).toBe('postgres://app@db/shop');
    expect(redactDatabaseUrl('postgres://a:b c@[bad')).toBe('postgres://***@[bad');
  });

  it('checks the options before connecting', async () => {
    const e = await failure(
      Promise.resolve().then(() => readSql('SELECT 1', 'postgres://h/db', { batchRows: 0 })),
    );
    expect(e.code).toBe('ERR_OPTIONS');
    expect(e.message).toContain('batchRows must be a whole number');
    void pg; // the driver is loaded by the reader, not by importing the sources
  });
});

describe('docs/inputs.md: the SQL examples run verbatim', () => {
  const server = usePostgres();
  const ROOT = new URL('../../', import.meta.url).pathname;
  const section = (() => {
    const doc = readFileSync(join(ROOT, 'docs/inputs.md'), 'utf8');
    const start = doc.indexOf('## SQL');
    return doc.slice(start, doc.indexOf('\n## ', start + 1));
  })();
  const blocks = (lang: string) =>
    [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);

  it('the shell examples, against a SQLite file and the PostgreSQL of the PG* variables', async () => {
    const s = server();
    await s.query(`CREATE TABLE pages (url text, updated_at timestamptz, priority numeric, tags text, photos text[], published boolean);
      INSERT INTO pages VALUES ('https://example.com/a', '2024-03-01 12:30:00+02', 0.7, 'blog', ARRAY['https://example.com/a.png'], true),
                               ('https://example.com/draft', NULL, NULL, NULL, NULL, false);`);
    const work = tempDir();
    const lite = new Database(join(work, 'site.db'));
    lite.exec(`CREATE TABLE pages (url TEXT, updated_at TEXT, published INTEGER);
      INSERT INTO pages VALUES ('https://example.com/a', datetime('2024-03-01 10:30:00'), 1), ('https://example.com/draft', NULL, 0);`);
    lite.close();
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {
      mode: 0o755,
    });
    const commands = blocks('sh').flatMap((b) => b.split('\n').filter((l) => l.startsWith('sitemapkit ')));
    expect(commands).toHaveLength(2);
    for (const command of commands) {
      rmSync(join(work, 'dist'), { recursive: true, force: true });
      const r = await runProcess('sh', ['-c', command], {
        cwd: work,
        env: { ...s.env, PATH: `${bin}:${process.env['PATH']}` },
      });
      expect(r.code, `${command}\n${r.stderr}`).toBe(0);
      const xml = readFileSync(join(work, 'dist', 'sitemap.xml'), 'utf8');
      expect(xml).toContain('<loc>https://example.com/a</loc><lastmod>2024-03-01T10:30:00Z</lastmod>');
      expect(xml).not.toContain('draft');
    }
  });

  it('the library example', async () => {
    const work = tempDir();
    const lite = new Database(join(work, 'site.db'));
    lite.exec(`CREATE TABLE pages (url TEXT, updated_at TEXT, published INTEGER);
      INSERT INTO pages VALUES ('https://example.com/a', '2024-03-01 10:30:00', 1), ('https://example.com/b', NULL, 1);`);
    lite.close();
    const [code] = blocks('js');
    // Inside the repository, so that `sitemapkit/…` resolves to this package (and its dist/).
    const scripts = join(ROOT, 'test/.tmp');
    mkdirSync(scripts, { recursive: true });
    const holder = mkdtempSync(join(scripts, 'sql-doc-'));
    const script = join(holder, 'example.mjs');
    writeFileSync(script, code!);
    const r = await runProcess(process.execPath, [script], { cwd: work });
    rmSync(holder, { recursive: true, force: true });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('2');
    expect(readFileSync(join(work, 'dist', 'sitemap.xml'), 'utf8')).toContain(
      '<lastmod>2024-03-01T10:30:00Z</lastmod>',
    );
  });
});
