import { lastmodSuite } from './lastmod-suite.js';
import { sqliteTarget } from './targets.js';

lastmodSuite(sqliteTarget);
