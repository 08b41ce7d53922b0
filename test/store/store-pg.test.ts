import { storeSuite } from './store-suite.js';
import { postgresTarget } from './targets.js';

// The same tests as store.test.ts, over a PostgreSQL store on a throwaway cluster.
storeSuite(postgresTarget());
