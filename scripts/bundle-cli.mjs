#!/usr/bin/env node
// The CLI's start-up (issue 16, item 6): `npm run build` runs this after tsc. It bundles the
// compiled CLI (dist/cli/start.js and every command it imports on demand) with esbuild into
// dist/cli/sitemapkit.js and chunks beside it (chunk-HASH.js), one chunk graph per command, so
// that a run loads a handful of files instead of one module per source file (resolving, reading
// and compiling each costs Node more than the code in it). dist/cli/bin.cjs (package.json's bin)
// runs the bundle when it is at least as new as dist/cli/start.js, else start.js; `parse`,
// `validate`, `generate`, `robots` and `submit` each run from a bundle of their own, one classic
// script with a V8 code cache (the end of this file). The
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
import { spawn } from 'node:child_process';
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

/**
 * The commands that scripts, hooks and CI steps call often, each run from a script bundle of its
 * own with a V8 code cache (the end of this file); scripts/command-code-cache.mjs holds the runs
 * each cache is made from. Any other command runs from the whole CLI's bundle.
 */
const SCRIPT_COMMANDS = ['parse', 'validate', 'generate', 'robots', 'submit'];

// The previous bundle goes first: chunk names change with their content. (sitemapkit-parse.js and
// its parse-HASH.js chunks are the parse bundle's ES-module form of the third pass, removed from a
// dist/ built before; so is the script of a command no longer in the list above.) The scripts
// and their caches are replaced in place (written to a temporary file renamed over the old one),
// so that a run started meanwhile finds one.
for (const f of await readdir(CLI)) {
  const script = /^sitemapkit-([a-z-]+)\.(?:script\.js|code-cache)$/.exec(f);
  if (
    f === 'sitemapkit.js' ||
    f === 'sitemapkit-parse.js' ||
    /^(chunk|parse)-[A-Z0-9]+\.js$/.test(f) ||
    (script !== null && !SCRIPT_COMMANDS.includes(script[1]))
  )
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
 * Each command of SCRIPT_COMMANDS gets a bundle of its own: the same code as sitemapkit.js with
 * that command imported statically and every other command left out. bin.cjs runs it when the
 * command is named first, the command main.ts then picks; main.ts then loads no other command.
 */
function commandOnly(command) {
  return {
    name: `${command}-command-only`,
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]main\.js$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        let register;
        const contents = text.replace(
          /(\s)(['\w-]+): async \(\) => \(await import\('(\.\/commands\/[\w-]+\.js)'\)\)\.(\w+),/g,
          (_, space, key, file, name) => {
            if (key.replace(/'/g, '') !== command)
              return `${space}${key}: async () => { throw new Error('the ${command} bundle runs ${command} only'); },`;
            register = { file, name };
            return `${space}${key}: async () => __skRegister,`;
          },
        );
        if (register === undefined)
          throw new Error(`bundle-cli: main.js no longer lists the ${command} command as expected`);
        return {
          contents: `import { ${register.name} as __skRegister } from '${register.file}';\n${contents}`,
          loader: 'js',
        };
      });
    },
  };
}

/**
 * A command's bundle is one classic script, not ES modules, so that it can be run with a V8 code
 * cache (Node 20 has no compile cache for modules: every run compiled the bundle afresh, about
 * half of what a one-URL parse spent over a bare `node -e ''`). The file is
 *
 *   //sitemapkit-COMMAND HASH
 *   (function (exports, require, module, __filename, __dirname) {"use strict"; …CommonJS… })
 *
 * HASH the SHA-256 of everything after that line. bin.cjs compiles it with `vm.Script`, passing
 * sitemapkit-COMMAND.code-cache (HASH on its first line, V8's cached data after it) when its HASH
 * is the script's: V8 itself checks only the length of the source, its own version and its flags,
 * so a cache left from another build of the same length would run that build's code. A missing,
 * foreign or rejected cache only means the script is compiled as usual.
 *
 * What would not survive the change of format is refused here: esbuild reports a top-level await
 * or an `import.meta` other than its url as a warning or an error, and then that command's script
 * is left out (bin.cjs runs it from the whole CLI's bundle: slower, the same results).
 * `import()` becomes require() (every module of the path is inlined; npm packages and Node's own
 * are required where the ESM code imported them); `import.meta.url` is the script's file URL, in
 * dist/cli/ like the chunks, so that a worker's file (the JSONL reader of `generate`) is found
 * where tsc wrote it, as in sitemapkit.js.
 */
/**
 * Node's modules and npm packages that a command needs only for some inputs (gzip, the JSONL
 * reader thread, HTML pages, CSV, glob filters, git dates, a database), which a one-URL run of a
 * text file or a sitemap does not touch: loading them at the script's start cost a one-URL
 * `validate` 30 ms of CPU and `generate` 36 ms (htmlparser2 and its entities tables alone 22 ms,
 * required as CommonJS without a code cache). In a script, esbuild binds such an import to a
 * variable `import_NAME = require("X")` (or `__toESM(require("X"))` for a default import) that the
 * code only reads properties of (`(0, import_NAME.fn)(…)`): the require is made on the first read
 * instead, through a proxy, as commander's child_process above.
 */
const ON_FIRST_USE = [
  'node:child_process',
  'node:crypto',
  'node:net',
  'node:os',
  'node:v8',
  'node:worker_threads',
  'node:zlib',
  'csv-parse',
  'entities',
  'htmlparser2',
  'picomatch',
];
const LAZY =
  'const __skLazy=(load)=>{let m;return new Proxy({},{get:(_,k)=>(m??=load())[k],has:(_,k)=>k in(m??=load())})};';
function onFirstUse(text) {
  const names = ON_FIRST_USE.map((n) => n.replace(/[/]/g, '\\/')).join('|');
  const out = text
    .replace(
      new RegExp(`\\b(import_[\\w$]+)=__toESM\\(require\\("(${names})"\\)(,1)?\\)`, 'g'),
      (_, binding, name, node = '') => `${binding}=__skLazy(()=>__toESM(require("${name}")${node}))`,
    )
    .replace(
      new RegExp(`\\b(import_[\\w$]+)=require\\("(${names})"\\)`, 'g'),
      (_, binding, name) => `${binding}=__skLazy(()=>require("${name}"))`,
    );
  // The helper goes after the banner's first statement, inside the script's function.
  const at = out.indexOf('"use strict";') + '"use strict";'.length;
  return `${out.slice(0, at)}${LAZY}${out.slice(at)}`;
}

const { outdir: _outdir, ...single } = common;
const built = [];
for (const command of SCRIPT_COMMANDS) {
  const file = join(CLI, `sitemapkit-${command}.script.js`);
  const result = await esbuild
    .build({
      ...single,
      splitting: false,
      format: 'cjs',
      outfile: file,
      write: false,
      stdin: {
        contents: "export { runCli } from './main.js';",
        resolveDir: CLI,
        sourcefile: `${command}-entry.js`,
      },
      supported: { 'dynamic-import': false },
      define: { 'import.meta.url': '__skUrl' },
      banner: {
        js: '(function (exports, require, module, __filename, __dirname) {"use strict";const __skUrl=require("node:url").pathToFileURL(__filename).href;',
      },
      footer: { js: '})' },
      logLevel: 'silent',
      plugins: [commandOnly(command), besideItself, lazyChildProcess],
    })
    .then(
      (result) => (result.warnings.length === 0 ? result : failed(command, result.warnings)),
      (error) => failed(command, error.errors ?? [error]),
    );
  if (result === undefined) {
    // No stale script is left to run old code (bin.cjs then runs the command from sitemapkit.js).
    await rm(file, { force: true });
    await rm(join(CLI, `sitemapkit-${command}.code-cache`), { force: true });
    continue;
  }
  const body = onFirstUse(result.outputFiles[0].text);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 32);
  await writeAtomic(file, `//sitemapkit-${command} ${hash}\n${body}`);
  built.push(command);
}

/** Why a command's script was not built (bin.cjs then runs the command from sitemapkit.js). */
function failed(command, messages) {
  const why = messages.map((m) => m.text ?? String(m)).join('; ');
  console.warn(
    `bundle-cli: the ${command} command's script bundle was not built (${why}); ${command} runs from sitemapkit.js`,
  );
  return undefined;
}

// Each cache is made by runs of its script in a fresh process (scripts/command-code-cache.mjs), so
// that it holds the functions a run compiles too, not only the top level; two at a time, for the
// two cores a build usually has. Without it (a Node that refuses, a crash), the command runs the
// same, compiled at every start. V8 takes a cache only under the V8 flags it was made with: the
// processes get none, not even from NODE_OPTIONS, so that the cache is the one a plain
// `sitemapkit COMMAND` can use.
const { NODE_OPTIONS: _flags, ...env } = process.env;
const makeCache = (command) =>
  new Promise((done) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'scripts/command-code-cache.mjs'), command, join(CLI, `sitemapkit-${command}.script.js`)],
      { stdio: ['ignore', 'inherit', 'inherit'], env },
    );
    child.on('error', () => done(1));
    child.on('close', (code) => done(code));
  }).then(async (code) => {
    if (code === 0) return;
    console.warn(`bundle-cli: no code cache for the ${command} script; ${command} runs without it`);
    await rm(join(CLI, `sitemapkit-${command}.code-cache`), { force: true });
  });
const queue = [...built];
await Promise.all(
  [0, 1].map(async () => {
    while (queue.length > 0) await makeCache(queue.shift());
  }),
);

/** Writes `text` to `file` through a temporary file renamed over it: never a half-written file. */
async function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}
