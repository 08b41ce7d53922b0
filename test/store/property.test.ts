import { propertySuite } from './property-suite.js';
import { sqliteTarget } from './targets.js';

propertySuite(sqliteTarget);
