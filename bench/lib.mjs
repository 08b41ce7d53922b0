// Shared bench helpers: run a contender in its own process and read its time and peak RSS.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT = fileURLToPath(new URL('./out/', import.meta.url));
mkdirSync(OUT, { recursive: true });

/**
 * Runs `node args…` and returns wall seconds and peak RSS (MiB), from /usr/bin/time's sibling:
 * the child reports its own `process.resourceUsage().maxRSS` through a preload hook.
 */
export function runNode(args, { env = {}, stdin } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      ['--import', new URL('./rss-hook.mjs', import.meta.url).href, ...args],
      {
        env: { ...process.env, ...env },
        stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      const m = /SK_MAXRSS=(\d+)/.exec(stderr);
      const rss = m ? Number(m[1]) / 1024 : Number.NaN;
      // CPU seconds too: on a loaded machine they move far less than the wall clock.
      const cpu = /SK_CPU=(\d+)/.exec(stderr);
      const cpuSecs = cpu ? Number(cpu[1]) / 1e6 : Number.NaN;
      stderr = stderr.replace(/SK_MAXRSS=\d+\n?/, '').replace(/SK_CPU=\d+\n?/, '');
      resolve({ code, secs, cpuSecs, rssMiB: rss, stderr, stdout });
    });
  });
}

export function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(columns.map((c) => r[c] ?? '')));
}

export const fmt = {
  s: (x) => x.toFixed(2),
  n: (x) => Math.round(x).toLocaleString('en-US'),
  mb: (x) => x.toFixed(0),
};
