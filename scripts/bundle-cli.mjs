#!/usr/bin/env node
// The CLI's start-up (issue 16, item 6): `npm run build` runs this after tsc. It bundles the
// compiled CLI (dist/cli/start.js and every command it imports on demand) with esbuild into
// dist/cli/sitemapkit.js and chunks beside it (chunk-HASH.js), one chunk graph per command, so
// that a run loads a handful of files instead of one module per source file (resolving, reading
// and compiling each costs Node more than the code in it). dist/cli/bin.cjs (package.json's bin)
// runs the bundle when it is at least as new as dist/cli/start.js, else start.js; `parse` runs
// from a bundle of its own, one classic script with a V8 code cache (the end of this file). The
// library (dist/** other than the CLI) stays as tsc wrote it: the package's `exports` are untouched.
//
// Paths taken from import.meta.url stay right: the chunks sit in dist/cli/, at the same depth as
// every dist/FOLDER/, so a path up to the package root (assets/, package.json) finds the same file; a file
// named beside its module (`new URL('./sqlite-worker.js', import.meta.url)`, a worker) is pointed
// at the module's own folder in dist/, where tsc wrote it (a worker runs in its own thread, with
// its own module graph, so nothing is loaded twice in one realm). npm packages stay imports.
//
// Without esbuild (an install without dev dependencies), the tsc output is left as it is: the CLI
// works the same, only its start-up is slower.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

// The previous bundle goes first: chunk names change with their content. (sitemapkit-parse.js and
// its parse-HASH.js chunks are the parse bundle's ES-module form of the third pass, removed from a
// dist/ built before.) The parse script and its cache are replaced in place (written to a
// temporary file renamed over the old one), so that a parse started meanwhile finds one.
const PARSE_SCRIPT = 'sitemapkit-parse.script.js';
const PARSE_CACHE = 'sitemapkit-parse.code-cache';
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
 * `sitemapkit parse`, the command scripts call most, gets a bundle of its own: the same code as
 * sitemapkit.js with the parse command imported statically and every other command left out.
 * bin.js runs it when the command named is `parse`, the rule main.ts uses to pick the command;
 * main.ts then loads no other command.
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

/**
 * The parse bundle is one classic script, not ES modules, so that it can be run with a V8 code
 * cache (Node 20 has no compile cache for modules: every run compiled the bundle's 250 KB afresh,
 * about half of what a one-URL parse spent over a bare `node -e ''`). The file is
 *
 *   //sitemapkit-parse HASH
 *   (function (exports, require, module, __filename, __dirname) {"use strict"; …CommonJS… })
 *
 * HASH the SHA-256 of everything after that line. bin.cjs compiles it with `vm.Script`, passing
 * sitemapkit-parse.code-cache (HASH on its first line, V8's cached data after it) when its HASH is
 * the script's: V8 itself checks only the length of the source, its own version and its flags, so
 * a cache left from another build of the same length would run that build's code. A missing,
 * foreign or rejected cache only means the script is compiled as usual.
 *
 * What would not survive the change of format is refused here: esbuild reports a top-level await
 * or an `import.meta` other than its url as a warning or an error, and then the parse bundle is
 * left out (bin.cjs runs `parse` from the whole CLI's bundle: slower, the same results).
 * `import()` becomes require() (every module of the path is inlined; npm packages and Node's own
 * are required where the ESM code imported them); `import.meta.url` is the script's file URL.
 */
const { outdir: _outdir, ...single } = common;
const parseScript = await esbuild
  .build({
    ...single,
    splitting: false,
    format: 'cjs',
    outfile: join(CLI, PARSE_SCRIPT),
    write: false,
    stdin: { contents: "export { runCli } from './main.js';", resolveDir: CLI, sourcefile: 'parse-entry.js' },
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__skUrl' },
    banner: {
      js: '(function (exports, require, module, __filename, __dirname) {"use strict";const __skUrl=require("node:url").pathToFileURL(__filename).href;',
    },
    footer: { js: '})' },
    logLevel: 'silent',
    plugins: [parseOnly, besideItself, lazyChildProcess],
  })
  .then(
    (result) => (result.warnings.length === 0 ? result : failed(result.warnings)),
    (error) => failed(error.errors ?? [error]),
  );

/** Why the parse script was not built (bin.cjs then runs parse from sitemapkit.js). */
function failed(messages) {
  const why = messages.map((m) => m.text ?? String(m)).join('; ');
  console.warn(
    `bundle-cli: the parse command's script bundle was not built (${why}); parse runs from sitemapkit.js`,
  );
  return undefined;
}

if (parseScript === undefined) {
  // No stale script is left to run old code (bin.cjs then runs parse from sitemapkit.js).
  await rm(join(CLI, PARSE_SCRIPT), { force: true });
  await rm(join(CLI, PARSE_CACHE), { force: true });
} else {
  const body = parseScript.outputFiles[0].text;
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  await writeAtomic(join(CLI, PARSE_SCRIPT), `//sitemapkit-parse ${hash}\n${body}`);
  // The cache is made by a run of the script in a fresh process (scripts/parse-code-cache.mjs),
  // so that it holds the functions a parse compiles too, not only the top level. Without it
  // (a Node that refuses, a crash), parse runs the same, compiled at every start. V8 takes a
  // cache only under the V8 flags it was made with: the process gets none, not even from
  // NODE_OPTIONS, so that the cache is the one a plain `sitemapkit parse` can use.
  const { NODE_OPTIONS: _flags, ...env } = process.env;
  const made = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts/parse-code-cache.mjs'), join(CLI, PARSE_SCRIPT)],
    { stdio: ['ignore', 'inherit', 'inherit'], env },
  );
  if (made.status !== 0)
    console.warn('bundle-cli: no code cache for the parse script; parse runs without it');
}

/** Writes `text` to `file` through a temporary file renamed over it: never a half-written file. */
async function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
