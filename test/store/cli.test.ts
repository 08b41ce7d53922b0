import { cliSuite } from './cli-suite.js';
import { sqliteTarget } from './targets.js';

cliSuite(sqliteTarget);
