/**
 * A throwaway PostgreSQL for the tests and the benchmarks (plain JavaScript, so that `bench/` can
 * use it too; types in postgres-cluster.d.mts, the vitest hooks in postgres.ts): Debian's `postgresql` package (installed by
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

const run = promisify(execFile);

/** The folder of Debian's PostgreSQL programs (highest major version), or of `initdb` on PATH. */
export function postgresBinDir() {
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
/** @returns {[string, string[]]} */
function asServerUser(program, args) {
  return isRoot ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
}

/**
 * The server's settings as `pg_ctl -o` takes them: `pg_ctl start` after a stop does not reuse the
 * last ones, so a test that starts the cluster again passes these.
 * @param {number} port @param {string} dir @returns {string}
 */
export function serverSettings(port, dir) {
  return [
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
}

/**
 * `pg_ctl` on a running test cluster, as the server's own user, waiting for it to finish.
 * @param {import('./postgres-cluster.mjs').Postgres} server @param {string[]} args
 */
export function pgCtl(server, ...args) {
  const [cmd, all] = asServerUser(server.bin('pg_ctl'), [
    '-D',
    join(server.dir, 'data'),
    '-l',
    join(server.dir, 'server.log'),
    ...args,
  ]);
  execFileSync(cmd, all, { stdio: 'ignore' });
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/** @type {Set<() => void>} */
const live = new Set();
let hooked = false;
/** Stops what `stop()` did not (a test file that forgot, an uncaught error): exit hooks are synchronous. */
function hookExit() {
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
function startWatchdog(pgCtl, dataDir, dir, watchPid) {
  const [cmd, args] = asServerUser(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop']);
  const stopLine = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const script = `while kill -0 ${watchPid} 2>/dev/null; do sleep 1; done; ${stopLine} >/dev/null 2>&1; rm -rf '${dir}'`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid;
}

/** Starts a fresh cluster with a `sitemapkit` database; the caller stops it. */
/** @param {{ watchPid?: number }} [options] @returns {Promise<import('./postgres-cluster.mjs').Postgres>} */
export async function startPostgres(options = {}) {
  const binDir = postgresBinDir();
  const bin = (name) => join(binDir, name);
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
  let watchdog;
  let stopped = false;
  const stopNow = () => {
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
      const settings = serverSettings(port, dir);
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
        throw new Error(`PostgreSQL did not start: ${e.message}\n${text}`);
      }
    }
    const host = '127.0.0.1';
    const urlOf = (db) => `postgres://${user}:${password}@${host}:${port}/${encodeURIComponent(db)}`;
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
      async createDatabase(name) {
        const c = new pg.Client({ host, port, user, password, database: 'postgres' });
        await c.connect();
        try {
          await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
        } finally {
          await c.end();
        }
        return urlOf(name);
      },
      async query(sql, params) {
        const c = new pg.Client({ host, port, user, password, database });
        await c.connect();
        try {
          return await c.query(sql, params);
        } finally {
          await c.end();
        }
      },
      async stop() {
        stopNow();
      },
    };
  } catch (e) {
    stopNow();
    throw e;
  }
}
