#!/usr/bin/env node
// Makes dist/cli/sitemapkit-parse.code-cache, the V8 code cache of the parse command's script
// bundle (run by scripts/bundle-cli.mjs, in a process of its own, after it wrote the script).
// The script is compiled as dist/cli/bin.js compiles it (the file's text as it is, through
// `vm.Script`), run on a one-URL sitemap with an image in the two formats scripts use most (JSON
// Lines, then the default), and its code cache taken after those runs: V8 then puts in it the
// functions the runs compiled (commander's option parsing, the parser, the output), not only the
// top level, so that a parse compiles almost nothing. The cache's first line is the script's
// hash (from the script's own first line), which bin.js compares before it hands the cache to V8.
// Usage: node scripts/parse-code-cache.mjs dist/cli/sitemapkit-parse.script.js
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const file = process.argv[2];
const text = readFileSync(file, 'utf8');
const header = /^\/\/sitemapkit-parse ([0-9a-f]+)\n/.exec(text);
if (header === null) throw new Error(`${file} does not start with the parse script's header`);
const script = new Script(text, { filename: file });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(pathToFileURL(file)), module, file, dirname(file));

const dir = mkdtempSync(join(tmpdir(), 'sk-code-cache-'));
try {
  const one = join(dir, 'one.xml');
  writeFileSync(
    one,
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n<url><loc>https://example.com/</loc><lastmod>2024-01-01</lastmod><image:image><image:loc>https://example.com/a.png</image:loc></image:image></url>\n</urlset>\n',
  );
  const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
  for (const args of [
    ['parse', one, '--format', 'jsonl'],
    ['parse', one],
  ]) {
    const stderr = [];
    const code = await module.exports.runCli(args, {
      stdout: sink(),
      stderr: new Writable({ write: (chunk, _encoding, done) => done(stderr.push(String(chunk))) }),
    });
    if (code !== 0)
      throw new Error(`the parse script exited ${code} on ${args.join(' ')}: ${stderr.join('')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const cache = join(dirname(file), 'sitemapkit-parse.code-cache');
const tmp = `${cache}.${process.pid}.tmp`;
writeFileSync(tmp, Buffer.concat([Buffer.from(`${header[1]}\n`), script.createCachedData()]));
renameSync(tmp, cache);
