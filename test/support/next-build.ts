/**
 * A Next.js app of test/fixtures (or examples/) built for real in a temporary folder: copied,
 * given the repository's node_modules, and built by `next build` through its CLI, without
 * telemetry and without the network. The build takes some seconds: a suite builds each once.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from './cli.js';
import { tempDir } from './tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const NEXT_BIN = join(ROOT, 'node_modules/next/dist/bin/next');
export const NEXT_SITEMAP_BIN = join(ROOT, 'node_modules/next-sitemap/bin/next-sitemap.mjs');

const copies: string[] = [];

/** Removes the copies this file made (a build leaves some 100 MB): call it in afterAll. */
export function removeApps(): void {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Environment of every Next.js run: no telemetry, no question asked. */
export const NEXT_ENV: NodeJS.ProcessEnv = { NEXT_TELEMETRY_DISABLED: '1', CI: '1' };

/**
 * Copies `source` (a folder of the repository) into a fresh temporary folder whose node_modules
 * holds the repository's packages, plus `sitemapkit` itself (this repository, as an app that
 * installed it from npm would find it).
 */
export function copyApp(source: string, name: string): string {
  const dir = join(tempDir(`sk-${name}`), name);
  copies.push(dirname(dir));
  cpSync(join(ROOT, source), dir, { recursive: true });
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(ROOT, join(modules, 'sitemapkit'));
  return dir;
}

/** Runs `next build` in `dir`; throws with its output when it fails. Returns the seconds it took. */
export async function nextBuild(dir: string, env: NodeJS.ProcessEnv = {}): Promise<number> {
  const started = performance.now();
  const run = await runProcess(process.execPath, [NEXT_BIN, 'build'], {
    cwd: dir,
    env: { ...NEXT_ENV, ...env },
    limitMs: 600_000,
  });
  if (run.code !== 0) throw new Error(`next build failed in ${dir}:\n${run.stdout}\n${run.stderr}`);
  return (performance.now() - started) / 1000;
}
