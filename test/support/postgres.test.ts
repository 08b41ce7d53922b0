import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runProcess } from './cli.js';
import { eventually, startPostgres, usePostgres } from './postgres.js';

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

describe('the throwaway PostgreSQL of the tests', () => {
  const server = usePostgres();

  it('answers SQL on 127.0.0.1 with the password, in the test database', async () => {
    const s = server();
    const r = await s.query<{ db: string; who: string; addr: string }>(
      'SELECT current_database() AS db, current_user AS who, inet_server_addr()::text AS addr',
    );
    expect(r.rows[0]).toEqual({ db: 'sitemapkit', who: 'postgres', addr: '127.0.0.1/32' });
    expect(s.url).toBe(`postgres://postgres:${s.password}@127.0.0.1:${s.port}/sitemapkit`);
    const c = new pg.Client({ connectionString: s.url });
    await c.connect();
    expect((await c.query('SELECT 1 + 1 AS two')).rows[0]).toEqual({ two: 2 });
    await c.end();
  });

  it('refuses a wrong password, as a real server does', async () => {
    const s = server();
    const c = new pg.Client({
      host: s.host,
      port: s.port,
      user: s.user,
      password: 'wrong',
      database: s.database,
    });
    await expect(c.connect()).rejects.toThrow(/password authentication failed/);
  });

  it('runs as an unprivileged user, with its data and socket under its own folder', async () => {
    const s = server();
    const r = await s.query<{ data: string; sockets: string }>(
      "SELECT current_setting('data_directory') AS data, current_setting('unix_socket_directories') AS sockets",
    );
    expect(r.rows[0]).toEqual({ data: join(s.dir, 'data'), sockets: s.dir });
    expect(statSync(join(s.dir, 'data')).uid).not.toBe(0);
    expect(existsSync(join(s.dir, `.s.PGSQL.${s.port}`))).toBe(true);
  });

  it('gives psql its PG* variables', async () => {
    const s = server();
    const r = await runProcess(s.bin('psql'), ['-At', '-c', 'SELECT current_database()'], { env: s.env });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('sitemapkit');
  });

  it('creates further databases', async () => {
    const s = server();
    const url = await s.createDatabase('other db');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    expect((await c.query('SELECT current_database() AS db')).rows[0]).toEqual({ db: 'other db' });
    await c.end();
  });

  it('starts clusters side by side, and stop() takes the server and its folder away', async () => {
    const other = await startPostgres();
    try {
      expect(other.port).not.toBe(server().port);
      await other.query('CREATE TABLE only_here (x int)');
      await expect(server().query('SELECT * FROM only_here')).rejects.toThrow(/does not exist/);
    } finally {
      await other.stop();
    }
    expect(existsSync(other.dir)).toBe(false);
    expect(await accepts(other.port)).toBe(false);
    await other.stop(); // twice is harmless
  });

  it('is stopped by the exit hook when a process ends without stop()', async () => {
    const starter = new URL('./postgres-cluster.mjs', import.meta.url).href;
    const r = await runProcess(process.execPath, [
      '--input-type=module',
      '-e',
      `const s = await (await import(${JSON.stringify(starter)})).startPostgres(); console.log(JSON.stringify({ dir: s.dir, port: s.port })); process.exit(0);`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const { dir, port } = JSON.parse(r.stdout) as { dir: string; port: number };
    // The hook runs before the process is gone: nothing to wait for.
    expect(existsSync(dir)).toBe(false);
    expect(await accepts(port)).toBe(false);
  });

  it('is stopped and deleted by its watchdog when the test process dies by SIGKILL (no hook runs)', async () => {
    // A stand-in for the test process, killed the way a runaway worker is.
    const standIn = spawn('sleep', ['600'], { stdio: 'ignore' });
    const s = await startPostgres({ watchPid: standIn.pid! });
    try {
      expect(await accepts(s.port)).toBe(true);
      standIn.kill('SIGKILL');
      await eventually(() => !existsSync(s.dir), 30_000);
      expect(await accepts(s.port)).toBe(false);
    } finally {
      standIn.kill('SIGKILL');
      await s.stop();
    }
  });
});
