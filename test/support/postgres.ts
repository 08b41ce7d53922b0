/**
 * The throwaway PostgreSQL of the tests (see postgres-cluster.mjs for how it is started and
 * stopped), with the vitest hooks that give each test file its own cluster.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Postgres, startPostgres } from './postgres-cluster.mjs';

export {
  type Postgres,
  type PostgresOptions,
  pgCtl,
  postgresBinDir,
  serverSettings,
  startPostgres,
} from './postgres-cluster.mjs';

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
