import { join } from 'node:path';
import { usePostgres } from '../support/postgres.js';

/** Where the store's tests put a store: the same tests run over each backend. */
export interface StoreTarget {
  name: string;
  /** A new store (empty until opened): a file in `dir`, or a schema of its own. */
  fresh(dir: string): string;
}

export const sqliteTarget: StoreTarget = { name: 'SQLite', fresh: (dir) => join(dir, 'site.db') };

/** A store per call in a schema of its own, on the test file's throwaway cluster (call at the top level). */
export function postgresTarget(): StoreTarget & { server: ReturnType<typeof usePostgres> } {
  const server = usePostgres();
  let n = 0;
  return { name: 'PostgreSQL', server, fresh: () => `${server().url}?schema=store_${++n}` };
}
