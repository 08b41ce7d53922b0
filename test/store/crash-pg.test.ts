import { createHash } from 'node:crypto';
import { eventually } from '../support/postgres.js';
import { crashSuite } from './crash-suite.js';
import { postgresTarget } from './targets.js';

// kill -9 over a PostgreSQL store: the server rolls back the killed client's transaction and
// releases its advisory lock when it notices the connection gone, which `settle` waits for.
const target = postgresTarget();
crashSuite({
  target,
  storeOf: (dir) =>
    `${target.server().url}?schema=c_${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`,
  copies: false,
  settle: () =>
    eventually(async () => {
      const r = await target
        .server()
        .query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'sitemapkit store'");
      return (r.rows[0] as { n: number }).n === 0;
    }),
});
