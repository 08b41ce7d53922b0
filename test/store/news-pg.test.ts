import { newsSuite } from './news-suite.js';
import { postgresTarget } from './targets.js';

// The same tests as news.test.ts, over a PostgreSQL store on a throwaway cluster.
newsSuite(postgresTarget());
