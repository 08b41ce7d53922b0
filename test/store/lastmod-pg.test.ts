import { lastmodSuite } from './lastmod-suite.js';
import { postgresTarget } from './targets.js';

// The same tests as lastmod.test.ts, over a PostgreSQL store on a throwaway cluster.
lastmodSuite(postgresTarget());
