#!/usr/bin/env node
// Makes dist/cli/sitemapkit-COMMAND.code-cache, the V8 code cache of a command's script bundle
// (run by scripts/bundle-cli.mjs, in a process of its own, after it wrote the script). The script
// is compiled as dist/cli/bin.cjs compiles it (the file's text as it is, through `vm.Script`), run
// on small local inputs the way scripts use the command most (RUNS below), and its code cache
// taken after those runs: V8 then puts in it the functions the runs compiled (commander's option
// parsing, the command, its output), not only the top level, so that a run compiles almost
// nothing. The runs touch no network and write only in a temporary folder, which is also their
// working folder (no configuration file of the build's folder is read). The cache's first line is
// the script's hash (from the script's own first line), which bin.cjs compares before it hands
// the cache to V8.
// Usage: node scripts/command-code-cache.mjs COMMAND dist/cli/sitemapkit-COMMAND.script.js
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const SITEMAP =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n<url><loc>https://example.com/</loc><lastmod>2024-01-01</lastmod><image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>\n</urlset>\n';

/** The inputs the runs read, written to the temporary folder. */
const FILES = {
  'one.xml': SITEMAP,
  'one.txt': 'https://example.com/\n',
  'one.jsonl': '{"loc":"https://example.com/a","lastmod":"2024-01-01","changefreq":"daily","priority":0.5}\n',
  'one.csv': 'loc,lastmod\nhttps://example.com/b,2024-01-01\n',
  'robots.txt': 'User-agent: *\nDisallow: /private/\nSitemap: https://example.com/sitemap.xml\n',
};

/** Per command, the runs (arguments, then the exit codes they may end with) the cache is made after. */
const RUNS = {
  parse: [[['parse', 'one.xml', '--format', 'jsonl']], [['parse', 'one.xml']]],
  validate: [[['validate', 'one.xml']], [['validate', 'one.txt']], [['validate', 'one.xml', '--json']]],
  generate: [
    [['generate', 'one.txt', '--base-url', 'https://example.com/', '--out', 'out-txt']],
    [['generate', 'one.jsonl', '--base-url', 'https://example.com/', '--out', 'out-jsonl']],
    [['generate', 'one.csv', '--base-url', 'https://example.com/', '--out', 'out-csv', '--gzip']],
  ],
  robots: [
    [
      [
        'robots',
        'check',
        'robots.txt',
        '--agent',
        'Googlebot',
        'https://example.com/private/a',
        'https://example.com/',
      ],
      [0, 1],
    ],
    [
      ['robots', 'lint', 'robots.txt'],
      [0, 1],
    ],
  ],
  submit: [[['submit', 'key', '--out', 'key']]],
};

const [command, file] = process.argv.slice(2);
const runs = RUNS[command];
if (runs === undefined) throw new Error(`no code cache runs for the ${command} command`);
const text = readFileSync(file, 'utf8');
const header = new RegExp(`^//sitemapkit-${command} ([0-9a-f]+)\\n`).exec(text);
if (header === null) throw new Error(`${file} does not start with the ${command} script's header`);
const script = new Script(text, { filename: file });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(pathToFileURL(file)), module, file, dirname(file));

const dir = mkdtempSync(join(tmpdir(), 'sk-code-cache-'));
const cwd = process.cwd();
try {
  process.chdir(dir);
  for (const [name, content] of Object.entries(FILES)) writeFileSync(join(dir, name), content);
  mkdirSync(join(dir, 'key'));
  const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  for (const [args, codes = [0]] of runs) {
    const stderr = [];
    const code = await module.exports.runCli(args, {
      stdout: sink(),
      stderr: new Writable({ write: (chunk, _encoding, done) => done(stderr.push(String(chunk))) }),
    });
    if (!codes.includes(code))
      throw new Error(`the ${command} script exited ${code} on ${args.join(' ')}: ${stderr.join('')}`);
  }
} finally {
  process.chdir(cwd);
  rmSync(dir, { recursive: true, force: true });
}
const cache = join(dirname(file), `sitemapkit-${command}.code-cache`);
const tmp = `${cache}.${process.pid}.tmp`;
writeFileSync(tmp, Buffer.concat([Buffer.from(`${header[1]}\n`), script.createCachedData()]));
renameSync(tmp, cache);
process.exit(0);
