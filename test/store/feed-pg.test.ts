import { feedSuite } from './feed-suite.js';
import { postgresTarget } from './targets.js';

// The same tests as feed.test.ts, over a PostgreSQL store on a throwaway cluster.
feedSuite(postgresTarget());
