import { newsSuite } from './news-suite.js';
import { sqliteTarget } from './targets.js';

newsSuite(sqliteTarget);
