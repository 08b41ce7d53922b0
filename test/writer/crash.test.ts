import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { readSitemapText, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';

function jsonl(n: number, tag: string): string {
  let s = '';
  for (let i = 0; i < n; i++)
    s += `${JSON.stringify({ loc: `${BASE}${tag}/${i}`, lastmod: '2024-01-01', priority: 0.5 })}\n`;
  return s;
}

function manifestHashes(dir: string): Map<string, string> {
  const m = JSON.parse(readFileSync(join(dir, '.sitemapkit-manifest.json'), 'utf8'));
  return new Map(m.files.map((f: { path: string; sha256: string }) => [f.path, f.sha256]));
}

function sha256(path: string): string {
  return createHash('sha256').update(readSitemapText(path)).digest('hex');
}

function locs(text: string): string[] {
  return [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

// A tiny deterministic PRNG, so a failing delay can be reproduced.
function prng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

function generateArgs(input: string, out: string): string[] {
  return ['generate', input, '--base-url', BASE, '--out', out, '--max-urls', '150', '--gzip'];
}

describe('crash safety', () => {
  it('kill -9 at random moments never leaves a broken entry point or a half-written file', async () => {
    const work = tempDir('sk-crash');
    const inputA = join(work, 'a.jsonl');
    const inputB = join(work, 'b.jsonl');
    writeFileSync(inputA, jsonl(30_000, 'a'));
    writeFileSync(inputB, jsonl(24_000, 'b'));
    // Reference builds: what a complete build A and a complete build B contain.
    const refB = join(work, 'ref-b');
    expect((await runBin(generateArgs(inputB, refB))).code).toBe(0);
    const hashesB = manifestHashes(refB);
    const out = join(work, 'out');
    expect((await runBin(generateArgs(inputA, out))).code).toBe(0);
    const hashesA = manifestHashes(out);

    // Time one full build B to spread the kills over it.
    const t0 = Date.now();
    expect((await runBin(generateArgs(inputB, join(work, 'timing')))).code).toBe(0);
    let full = Date.now() - t0;

    const rand = prng(20261122);
    let killedMidway = 0;
    for (let round = 0; round < 16; round++) {
      const delay = Math.floor(rand() * full * 0.8);
      const child = spawn(process.execPath, [BIN, ...generateArgs(inputB, out)], { stdio: 'ignore' });
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      if ((await exited) === null) killedMidway++;
      // A build that finished before the kill ran faster than the timing run (the machine is
      // shared): aim the next kills earlier.
      else full = Math.max(200, Math.floor(full * 0.7));

      const entry = join(out, 'sitemap.xml.gz');
      expect(existsSync(entry), `round ${round} (delay ${delay} ms)`).toBe(true);
      const lint = xmllint(entry);
      expect(lint.ok, `round ${round} (delay ${delay} ms): ${lint.output}`).toBe(true);
      for (const url of locs(readSitemapText(entry))) {
        const name = url.slice(BASE.length);
        const path = join(out, name);
        expect(existsSync(path), `round ${round}: ${name} is referenced but missing`).toBe(true);
        const h = sha256(path);
        expect(
          [hashesA.get(name), hashesB.get(name)],
          `round ${round}: ${name} is neither build A's nor B's`,
        ).toContain(h);
      }
    }
    // Timing on a busy machine varies; most kills must still land while the build runs.
    expect(killedMidway).toBeGreaterThanOrEqual(8);

    // The next complete run sweeps the leftovers and lands exactly on build B.
    expect((await runBin(generateArgs(inputB, out))).code).toBe(0);
    const names = readdirSync(out).sort();
    expect(names.filter((n) => n.startsWith('.sitemapkit-tmp'))).toEqual([]);
    const final = manifestHashes(out);
    for (const [name, h] of hashesB) {
      if (name === 'sitemap.xml.gz') continue; // the index differs by carried-over lastmods only
      expect(final.get(name), name).toBe(h);
      expect(sha256(join(out, name)), name).toBe(h);
    }
    expect(names).toEqual(['.sitemapkit-manifest.json', ...[...hashesB.keys()].sort()]);
  }, 180_000);
});
