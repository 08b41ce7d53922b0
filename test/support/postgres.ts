/**
 * A throwaway PostgreSQL for the tests: Debian's `postgresql` package (installed by
 * `scripts/ensure-system-deps.mjs`), a fresh cluster under a temporary folder, run as an
 * unprivileged user (`postgres` through `runuser` when the tests run as root, since root cannot run
 * the server; the current user otherwise), listening on a free port of 127.0.0.1 with its Unix
 * socket in that folder. No system service is used or needed. A cluster starts in well under a
 * second here (initdb without fsync, then `pg_ctl start -w`).
 *
 * Stopping: `stop()` (call it from `afterAll`; `usePostgres()` does), else a `process.on('exit')`
 * hook, else a watchdog. The watchdog is a small shell loop in its own session that waits for the
 * test process to die and then stops the cluster and deletes its folder, so a test process killed
 * by SIGKILL (which runs no hook) leaks the server for at most about a second. Limits: a watchdog
 * killed with the same SIGKILL by its pid (it is in its own session, so a process-group kill does not reach it), or
 * a machine that loses power, leaves the folder in the temporary directory (`sk-pg-*`); the next
 * boot or `rm -rf /tmp/sk-pg-*` removes it.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

const run = promisify(execFile);

/** A running throwaway cluster. */
export interface Postgres {
  /** `postgres://postgres:PASSWORD@127.0.0.1:PORT/sitemapkit`: the test database, password included. */
  url: string;
  host: string;
  port: number;
  /** The superuser (`postgres`), whose password is {@link password}. */
  user: string;
  password: string;
  /** The database created at start (`sitemapkit`). */
  database: string;
  /** The folder holding the cluster (`data/`), its log (`server.log`) and its Unix socket. */
  dir: string;
  /** The standard `PG*` variables naming this server and its test database (for `psql` and `pg`). */
  env: Record<string, string>;
  /** A program of the server's version (`psql`, `pg_dump`…), by name. */
  bin(name: string): string;
  /** The URL of another database on this server (create it first with {@link createDatabase}). */
  urlOf(database: string): string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL (several statements allowed when there are no parameters) in the test database. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  /** Stops the server (fast shutdown) and deletes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/** The folder of Debian's PostgreSQL programs (highest major version), or of `initdb` on PATH. */
export function postgresBinDir(): string {
  const fromEnv = process.env['SITEMAPKIT_PG_BINDIR'];
  if (fromEnv !== undefined && existsSync(join(fromEnv, 'initdb'))) return fromEnv;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors[0] !== undefined) return join(base, majors[0], 'bin');
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'initdb'))) return dir;
  }
  // Tests never skip: a missing server is a failure that says how to get one.
  throw new Error(
    'PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH): run `node scripts/ensure-system-deps.mjs` (npm test does), or apt-get install postgresql.',
  );
}

const isRoot = process.getuid?.() === 0;

/** The command line that runs a server program as the unprivileged user. */
function asServerUser(program: string, args: string[]): [string, string[]] {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const live = new Set<() => void>();
let hooked = false;
/** Stops what `stop()` did not (a test file that forgot, an uncaught error): exit hooks are synchronous. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const stopNow of live) stopNow();
  });
}

/**
 * A shell loop in its own session: when the test process is gone (even by SIGKILL) it stops the
 * cluster and deletes the folder. `stop()` kills it first, by its pid.
 */
function startWatchdog(pgCtl: string, dataDir: string, dir: string, watchPid: number): number | undefined {
  const [cmd, args] = asServerUser(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop']);
  const stopLine = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `while kill -0 ${watchPid} 2>/dev/null; do sleep 1; done; ${stopLine} >/dev/null 2>&1; rm -rf '${dir}'`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid;
}

export interface PostgresOptions {
  /** The process whose death stops the cluster (the harness's own self-test kills a stand-in). @default process.pid */
  watchPid?: number;
}

/** Starts a fresh cluster with a `sitemapkit` database; the caller stops it. */
export async function startPostgres(options: PostgresOptions = {}): Promise<Postgres> {
  const binDir = postgresBinDir();
  const bin = (name: string) => join(binDir, name);
  const dir = mkdtempSync(join(tmpdir(), 'sk-pg-'));
  const dataDir = join(dir, 'data');
  const log = join(dir, 'server.log');
  const password = randomBytes(12).toString('hex');
  const user = 'postgres';
  const database = 'sitemapkit';
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o644 });
  let watchdog: number | undefined;
  let stopped = false;
  const stopNow = (): void => {
    if (stopped) return;
    stopped = true;
    live.delete(stopNow);
    if (watchdog !== undefined) {
      try {
        process.kill(watchdog, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      const [cmd, args] = asServerUser(bin('pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      try {
        execFileSync(cmd, args, { stdio: 'ignore' });
      } catch {
        // not running: nothing to stop
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  live.add(stopNow);
  hookExit();
  try {
    const [initCmd, initArgs] = asServerUser(bin('initdb'), [
      '-D',
      dataDir,
      '-U',
      user,
      `--pwfile=${pwfile}`,
      // The socket is reached by the server user only; TCP asks for the password, as a real server does.
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    await run(initCmd, initArgs);
    rmSync(pwfile);
    watchdog = startWatchdog(bin('pg_ctl'), dataDir, dir, options.watchPid ?? process.pid);
    let port = 0;
    // Another process may take the free port between the probe and the bind: try a few.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const settings = [
        `-p ${port}`,
        `-k ${dir}`,
        '-c listen_addresses=127.0.0.1',
        // A throwaway cluster: durability buys nothing, and small buffers leave the RAM to the tests.
        '-c fsync=off',
        '-c synchronous_commit=off',
        '-c full_page_writes=off',
        '-c shared_buffers=32MB',
        '-c max_connections=30',
      ].join(' ');
      const [cmd, args] = asServerUser(bin('pg_ctl'), [
        '-D',
        dataDir,
        '-l',
        log,
        '-w',
        '-t',
        '60',
        '-o',
        settings,
        'start',
      ]);
      try {
        await run(cmd, args);
        break;
      } catch (e) {
        const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
        if (attempt < 5 && /could not (bind|create listen)|Address already in use/i.test(text)) continue;
        throw new Error(`PostgreSQL did not start: ${(e as Error).message}\n${text}`);
      }
    }
    const host = '127.0.0.1';
    const urlOf = (db: string) => `postgres://${user}:${password}@${host}:${port}/${encodeURIComponent(db)}`;
    const admin = new pg.Client({ host, port, user, password, database: 'postgres' });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    return {
      url: urlOf(database),
      host,
      port,
      user,
      password,
      database,
      dir,
      env: {
        PGHOST: host,
        PGPORT: String(port),
        PGUSER: user,
        PGPASSWORD: password,
        PGDATABASE: database,
      },
      bin,
      urlOf,
      async createDatabase(name: string): Promise<string> {
        const c = new pg.Client({ host, port, user, password, database: 'postgres' });
        await c.connect();
        try {
          await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
        } finally {
          await c.end();
        }
        return urlOf(name);
      },
      async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
        sql: string,
        params?: unknown[],
      ): Promise<pg.QueryResult<R>> {
        const c = new pg.Client({ host, port, user, password, database });
        await c.connect();
        try {
          return await c.query<R>(sql, params);
        } finally {
          await c.end();
        }
      },
      async stop(): Promise<void> {
        stopNow();
      },
    };
  } catch (e) {
    stopNow();
    throw e;
  }
}

/**
 * One cluster for the test file: started before its first test, stopped after its last (also when
 * tests fail). Returns a getter, since the cluster exists only once `beforeAll` ran.
 */
export function usePostgres(): () => Postgres {
  let pgServer: Postgres | undefined;
  beforeAll(async () => {
    pgServer = await startPostgres();
  });
  afterAll(async () => {
    await pgServer?.stop();
  });
  return () => {
    if (pgServer === undefined)
      throw new Error('usePostgres(): the cluster starts in beforeAll; call the getter inside a test');
    return pgServer;
  };
}

/**
 * Polls until `done()` holds, for what the server does after the client is gone (a backend ends,
 * a lock is released); fails, never hangs, after `limitMs`. Not a timing assertion: the limit is generous.
 */
export async function eventually(done: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`not done within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
