#!/usr/bin/env node
// The CLI's start-up (issue 16, item 6): `npm run build` runs this after tsc. It bundles the
// compiled CLI (dist/cli/start.js and every command it imports on demand) with esbuild into
// dist/cli/sitemapkit.js and chunks beside it (chunk-HASH.js), one chunk graph per command, so
// that a run loads a handful of files instead of one module per source file (resolving, reading
// and compiling each costs Node more than the code in it). dist/cli/bin.js runs the bundle when it
// is at least as new as dist/cli/start.js, else start.js. The library (dist/** other than the
// CLI) stays as tsc wrote it: the package's `exports` are untouched.
//
// Paths taken from import.meta.url stay right: the chunks sit in dist/cli/, at the same depth as
// every dist/FOLDER/, so a path up to the package root (assets/, package.json) finds the same file; a file
// named beside its module (`new URL('./sqlite-worker.js', import.meta.url)`, a worker) is pointed
// at the module's own folder in dist/, where tsc wrote it (a worker runs in its own thread, with
// its own module graph, so nothing is loaded twice in one realm). npm packages stay imports.
//
// Without esbuild (an install without dev dependencies), the tsc output is left as it is: the CLI
// works the same, only its start-up is slower.
import { readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const CLI = join(ROOT, 'dist/cli');

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('bundle-cli: esbuild is not installed; the CLI stays unbundled (slower start-up)');
  process.exit(0);
}

/** `new URL('./NAME', import.meta.url)` in a module of dist/FOLDER/ → the same file from dist/cli/. */
const besideItself = {
  name: 'paths-beside-their-module',
  setup(build) {
    build.onLoad({ filter: /\/dist\/.*\.js$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      const folder = dirname(args.path);
      if (folder !== CLI && text.includes('import.meta.url')) {
        const from = relative(CLI, folder).split('\\').join('/');
        text = text.replace(
          /new URL\((['"])\.\/([^'"]+)\1, import\.meta\.url\)/g,
          (_, q, name) => `new URL(${q}${from}/${name}${q}, import.meta.url)`,
        );
      }
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * commander requires `node:child_process` at its top, for executable subcommands, which sitemapkit
 * does not use: loading it (with `net`, `dgram` and their bindings) cost every run about 3 ms of
 * CPU (start-up, issue 16). It is required when commander first touches it instead.
 */
const CHILD_PROCESS = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'commander-child-process-on-use',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes(CHILD_PROCESS)) return undefined;
      return {
        contents: text.replace(
          CHILD_PROCESS,
          "let childProcessModule; const childProcess = new Proxy({}, { get: (_, key) => (childProcessModule ??= require('node:child_process'))[key] });",
        ),
        loader: 'js',
      };
    });
  },
};

// The previous bundle goes first: chunk names change with their content.
for (const f of await readdir(CLI)) {
  if (f === 'sitemapkit.js' || f === 'sitemapkit-parse.js' || /^(chunk|parse)-[A-Z0-9]+\.js$/.test(f))
    await rm(join(CLI, f));
}
const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // npm packages stay imports, resolved from the installed package as before, except commander:
  // every run loads it, and as CommonJS through the ESM loader it costs a module lexer pass and
  // six file lookups. Its require() calls (child_process, events, …) get a real require below.
  external: Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies }).filter(
    (name) => name !== 'commander',
  ),
  banner: {
    js: "import { createRequire as __skRequire } from 'node:module';\nconst require = __skRequire(import.meta.url);",
  },
  outdir: CLI,
  logLevel: 'warning',
  // Blanks and syntax minified (less for Node to read and compile at every start); names kept, so
  // that an internal error's stack (SITEMAPKIT_DEBUG=1) still names its functions.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
};
await esbuild.build({
  ...common,
  entryPoints: { sitemapkit: join(CLI, 'start.js') },
  chunkNames: 'chunk-[hash]',
  plugins: [besideItself, lazyChildProcess],
});

/**
 * `sitemapkit parse`, the command scripts call most, gets a bundle of its own
 * (sitemapkit-parse.js and parse-HASH.js chunks): the same code as sitemapkit.js with the parse
 * command imported statically and every other command left out, so that a parse run loads a few
 * files instead of the twenty-odd chunks the whole CLI's graph splits into (each resolved, read,
 * compiled and linked on its own). bin.js runs it when the command named is `parse`, the rule
 * main.ts uses to pick the command; main.ts then loads no other command.
 */
const parseOnly = {
  name: 'parse-command-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]main\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const parse = "parse: async () => (await import('./commands/parse.js')).registerParse,";
      if (!text.includes(parse))
        throw new Error('bundle-cli: main.js no longer lists the parse command as expected');
      const contents = `import { registerParse as __skRegisterParse } from './commands/parse.js';\n${text
        .replace(parse, 'parse: async () => __skRegisterParse,')
        .replace(
          /(\s)(['\w-]+): async \(\) => \(await import\('\.\/commands\/[\w-]+\.js'\)\)\.\w+,/g,
          "$1$2: async () => { throw new Error('the parse bundle runs parse only'); },",
        )}`;
      return { contents, loader: 'js' };
    });
  },
};
await esbuild.build({
  ...common,
  entryPoints: { 'sitemapkit-parse': join(CLI, 'start.js') },
  chunkNames: 'parse-[hash]',
  plugins: [parseOnly, besideItself, lazyChildProcess],
});
