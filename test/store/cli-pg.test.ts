import { cliSuite } from './cli-suite.js';
import { postgresTarget } from './targets.js';

// The same command-line tests as cli.test.ts, with --store postgres://…?schema=NAME.
cliSuite(postgresTarget());
