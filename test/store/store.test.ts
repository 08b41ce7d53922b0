import { storeSuite } from './store-suite.js';
import { sqliteTarget } from './targets.js';

storeSuite(sqliteTarget);
