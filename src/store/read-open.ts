/**
 * `openStore(path, { readOnly: true })`: the readers of both databases, and the backend a
 * read-only store stands on, which refuses every call but `close` (the read path does not use it).
 */
import { SitemapkitError } from '../core/errors.js';
import type { StoreBackend } from './backend.js';
import type { PostgresTarget } from './postgres-open.js';
import { openPostgresReader } from './postgres-read.js';
import type { StoreReads } from './read.js';
import { openSqliteReader } from './sqlite-read.js';

export async function openReadOnly(
  path: string,
  pg: PostgresTarget | undefined,
): Promise<{ reads: StoreReads; meta: Map<string, string>; close(): Promise<void> }> {
  if (pg !== undefined) return openPostgresReader(pg);
  const r = await openSqliteReader(path);
  return { ...r, close: async () => undefined };
}

/** A backend whose every call but `close` fails with `ERR_STATE` (a read-only store's). */
export function refusedBackend(where: string, close: () => Promise<void>): StoreBackend {
  return new Proxy({} as StoreBackend, {
    get(_, key) {
      if (key === 'close') return close;
      if (key === 'then') return undefined;
      return () =>
        Promise.reject(
          new SitemapkitError(
            'ERR_STATE',
            'the site store was opened read-only: only files(), fileEntries() and generation() read it',
            {
              where,
              hint: 'open it without readOnly for the other calls (one writer at a time)',
            },
          ),
        );
    },
  });
}
