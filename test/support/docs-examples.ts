/**
 * What the docs tests share: a `sitemapkit` on PATH that runs the built CLI (so a page's commands
 * run as printed), and a page's shell examples with the output the page shows after them.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN } from './cli.js';

/** Makes `dir/bin/sitemapkit` run the built CLI; returns `dir/bin`, for PATH. */
export function sitemapkitShim(dir: string): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'sitemapkit'), 0o755);
  return bin;
}

/** Each ```sh block's lines, and the plain ``` block after it (what the page says it prints), if any. */
export function shellExamples(text: string): Array<{ command: string; shown: string | undefined }> {
  const out: Array<{ command: string; shown: string | undefined }> = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```\n(?:\n```\n([\s\S]*?)```)?/g)) {
    const lines = m[1]!.split('\n').filter((l) => l.trim() !== '');
    lines.forEach((command, i) => {
      out.push({ command, shown: i === lines.length - 1 ? m[2] : undefined });
    });
  }
  return out;
}
