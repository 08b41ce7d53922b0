import { join } from 'node:path';
import { crashSuite } from './crash-suite.js';
import { sqliteTarget } from './targets.js';

crashSuite({
  target: sqliteTarget,
  storeOf: (dir) => join(dir, 'site.db'),
  copies: true,
  settle: async () => undefined,
});
