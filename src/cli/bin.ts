#!/usr/bin/env node
// `node dist/cli/bin.js`, as the tests, the benchmarks and older instructions run the CLI: the
// same command as package.json's "bin", dist/cli/bin.cjs (see bin.cts), loaded through Node's ES
// module loader, which that entry point spares.
import './bin.cjs';
