import { feedSuite } from './feed-suite.js';
import { sqliteTarget } from './targets.js';

feedSuite(sqliteTarget);
