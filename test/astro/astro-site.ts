/**
 * Builds a fixture Astro site for real, with Astro's programmatic `build()`: the fixture is copied
 * into a temp folder with a link to the repository's node_modules (so that `astro` resolves), and
 * built there once per suite. Not under test/: a server build holds absolute paths, which
 * test/architecture/standalone.test.ts would find there. The integrations' `astro:build:done` log lines are captured by wrapping
 * the hook, since Astro's own logger prints.
 */
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig, AstroIntegration } from 'astro';
import { tempDir } from '../support/tmp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../fixtures/astro/', import.meta.url));

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** The integration with its build-done log lines going to `lines` as well as to Astro's log. */
export function capturing(integration: AstroIntegration, lines: LogLine[]): AstroIntegration {
  const done = integration.hooks['astro:build:done'];
  if (done === undefined) return integration;
  return {
    ...integration,
    hooks: {
      ...integration.hooks,
      'astro:build:done': (args) => {
        const tee = (level: LogLine['level']) => (message: string) => {
          lines.push({ level, message });
          args.logger[level](message);
        };
        const logger = Object.assign(Object.create(args.logger), {
          info: tee('info'),
          warn: tee('warn'),
          error: tee('error'),
        });
        return done({ ...args, logger });
      },
    },
  };
}

/** A fresh copy of a fixture site in a temp folder; removed by the returned function. */
export function copyFixture(name: string): { root: string; remove: () => void } {
  const root = tempDir(`sk-astro-${name}`);
  cpSync(join(FIXTURES, name), root, { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Builds `root` into `root/OUT` with the given config (no network: no fonts, no remote images). */
export async function buildSite(root: string, out: string, config: AstroInlineConfig): Promise<string> {
  // Astro reports builds to its telemetry server unless told not to: a test makes no request.
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  const { build } = await import('astro');
  const outDir = join(root, out);
  await build({
    root,
    outDir,
    cacheDir: join(root, '.cache'),
    configFile: false,
    logLevel: 'error',
    ...config,
  } as AstroInlineConfig);
  return outDir;
}

/** The `<loc>`s of the urlsets among `files` of `dir`. */
export function locsOf(dir: string, files: readonly string[]): string[] {
  return files.flatMap((f) => {
    const text = readFileSync(join(dir, f), 'utf8');
    if (!text.includes('<urlset')) return [];
    return [...text.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  });
}

/** The sitemap files of a build output (`sitemap-index.xml`, `sitemap-0.xml`, …), sorted. */
export function sitemapFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((n) => /^sitemap.*\.xml(\.gz)?$/.test(n))
    .sort();
}
