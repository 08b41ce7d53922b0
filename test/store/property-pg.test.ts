import { propertySuite } from './property-suite.js';
import { postgresTarget } from './targets.js';

// The same property as property.test.ts, over PostgreSQL stores (a schema per run).
propertySuite(postgresTarget());
