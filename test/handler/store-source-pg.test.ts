import { postgresTarget } from '../store/targets.js';
import { storeSourceSuite } from './store-source-suite.js';

// The same tests as store-source.test.ts, over a PostgreSQL store on a throwaway cluster.
storeSourceSuite(postgresTarget());
