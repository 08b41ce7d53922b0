import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { Diagnostic } from '../../core/diagnostics.js';
import { isSitemapkitError } from '../../core/errors.js';
import { MAX_URLS } from '../../core/limits.js';
import { loadNextConfig } from '../../next/config-file.js';
import { generateNextSitemaps, type NextSitemapsResult } from '../../next/generate.js';
import { checkNextOptionNames, type NextSitemapOptions } from '../../next/options.js';
import { LEFT_OUT_REASONS, type NextLeftOutReason } from '../../next/routes.js';
import type { CliContext } from '../context.js';
import { DiagnosticReport } from '../diagnostic-report.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { collect, wholeNumberArg } from '../flags.js';

interface NextFlags {
  siteUrl?: string;
  config?: string;
  out?: string;
  distDir?: string;
  exclude: string[];
  robots?: boolean;
  changefreq?: string;
  priority?: number;
  sitemapSize?: number;
  lastmod?: boolean;
  images: boolean;
  index: boolean;
  baseName?: string;
  gzip?: boolean;
  json?: boolean;
}

const REASONS: Readonly<Record<string, string>> = {
  ...LEFT_OUT_REASONS,
  exclude: 'it matches exclude',
  transform: 'the transform returned nothing for it',
};

function priorityArg(raw: string): number {
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!(n >= 0 && n <= 1)) throw new UsageError(`--priority needs a number from 0 to 1, not "${raw}"`);
  return n;
}

export function registerNext(program: Command, ctx: CliContext): void {
  program
    .command('next')
    .description(
      "Write the sitemaps (and robots.txt) of a finished next build, with next-sitemap's options and file names",
    )
    .argument(
      '[dir]',
      'the Next.js project folder (where next build wrote .next/), or its static export',
      '.',
    )
    .option('--site-url <url>', "the site's public URL, e.g. https://example.com (next-sitemap's siteUrl)")
    .option(
      '--config <file>',
      'the options file (default: sitemapkit.next.config.mjs/.js or next-sitemap.config.js in DIR, when there)',
    )
    .option('--out <dir>', 'output folder, relative to DIR (default: the export folder, else public)')
    .option('--dist-dir <dir>', "the build folder, relative to DIR: next.config.js's distDir (default .next)")
    .option('--exclude <pattern>', 'leave out matching paths, e.g. "/admin/*" (repeatable)', collect, [])
    .option('--robots', 'also write robots.txt (generateRobotsTxt)')
    .addOption(
      new Option('--changefreq <value>', "every entry's changefreq (Google ignores it)").choices([
        'always',
        'hourly',
        'daily',
        'weekly',
        'monthly',
        'yearly',
        'never',
      ]),
    )
    .option('--priority <n>', "every entry's priority, 0 to 1 (Google ignores it)", priorityArg)
    .option(
      '--sitemap-size <n>',
      `URLs a file (default and most ${MAX_URLS})`,
      wholeNumberArg('--sitemap-size', 1, MAX_URLS),
    )
    .option('--lastmod', 'lastmod from the time next build wrote each page (autoLastmod; off by default)')
    .option('--no-images', "leave the pages' images out")
    .option('--no-index', 'no index over a single file: sitemap.xml is the urlset (generateIndexSitemap)')
    .option('--base-name <name>', 'the index name without .xml (sitemapBaseFileName; default sitemap)')
    .option('--gzip', 'also compress the files (.gz)')
    .option('--json', 'print a machine-readable summary (JSON) on stdout')
    .addHelpText(
      'after',
      `
Flags override the options of the config file (next-sitemap.config.js works as it is).

Examples:
  sitemapkit next --site-url https://example.com
  sitemapkit next my-app --config next-sitemap.config.js
  sitemapkit next --site-url https://example.com --robots --exclude "/admin/*" --exclude /secret

In package.json: "postbuild": "sitemapkit next"

Exit codes: 0 written; 1 no URLs, or an invalid entry (nothing written); 2 usage error or could not run (nothing written);
130 interrupted.`,
    )
    .action(async (dir: string, flags: NextFlags) => {
      ctx.exitCode = await runNext(dir, flags, ctx);
    });
}

async function runNext(dir: string, flags: NextFlags, ctx: CliContext): Promise<number> {
  const file = await loadNextConfig(dir, flags.config);
  if (typeof file?.options === 'object' && file.options !== null)
    checkNextOptionNames(file.options, file.path);
  const options: NextSitemapOptions = {
    ...(file?.options as NextSitemapOptions | undefined),
  } as NextSitemapOptions;
  options.dir = resolve(dir);
  if (flags.siteUrl !== undefined) options.siteUrl = flags.siteUrl;
  if (flags.out !== undefined) options.outDir = flags.out;
  if (flags.distDir !== undefined) options.sourceDir = flags.distDir;
  if (flags.exclude.length > 0) {
    const own = options.exclude;
    options.exclude =
      typeof own === 'function'
        ? async () => [...(await own()), ...flags.exclude]
        : [...(own ?? []), ...flags.exclude];
  }
  if (flags.robots === true) options.generateRobotsTxt = true;
  if (flags.changefreq !== undefined) options.changefreq = flags.changefreq;
  if (flags.priority !== undefined) options.priority = flags.priority;
  if (flags.sitemapSize !== undefined) options.sitemapSize = flags.sitemapSize;
  if (flags.lastmod === true) options.autoLastmod = true;
  if (!flags.images) options.images = false;
  if (!flags.index) options.generateIndexSitemap = false;
  if (flags.baseName !== undefined) options.sitemapBaseFileName = flags.baseName;
  if (flags.gzip === true) options.gzip = true;
  const report = new DiagnosticReport(flags.json === true, ctx);
  options.onDiagnostic = (d: Diagnostic): void => report.add(d);
  options.signal = ctx.signal;
  let result: NextSitemapsResult;
  try {
    result = await generateNextSitemaps(options);
  } catch (error) {
    report.finish();
    // Findings (no URL to write, an invalid entry from a transform): exit 1, as generate does.
    if (isSitemapkitError(error) && (error.code === 'ERR_NO_URLS' || error.code === 'ERR_INVALID_ENTRY')) {
      if (flags.json) {
        const { code, message, hint } = error;
        ctx.stdout.write(
          `${JSON.stringify({ ok: false, code, message, hint, ...report.json() }, null, 2)}\n`,
        );
      } else ctx.stderr.write(`sitemapkit: ${error.message}${error.hint ? `\n  ${error.hint}` : ''}\n`);
      return EXIT_FINDINGS;
    }
    throw error;
  }
  report.finish();
  if (flags.json) {
    ctx.stdout.write(
      `${JSON.stringify({ ok: result.skipped === 0, config: file?.path, ...result, ...report.json() }, null, 2)}\n`,
    );
  } else {
    const files = result.files.length;
    const lines = [
      `Read the ${result.build.kind === 'export' ? 'static export' : 'server build'} of ${dir}${file !== undefined ? ` with ${file.path}` : ''}: ${result.build.pages} page${result.build.pages === 1 ? '' : 's'}`,
      `Wrote ${result.urls.toLocaleString('en-US')} URL${result.urls === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} to ${result.outDir}`,
      `  entry point: ${result.entry.path} (${result.entry.url})`,
    ];
    if (result.robotsTxt !== undefined) lines.push(`  robots.txt: ${result.robotsTxt}`);
    if (result.leftOut.length > 0) {
      lines.push(`  left out:`);
      for (const l of result.leftOut)
        lines.push(`    ${l.path}: ${REASONS[l.reason as NextLeftOutReason] ?? l.reason}`);
    }
    if (result.skipped > 0)
      lines.push(
        `  ${result.skipped} invalid or duplicate record${result.skipped === 1 ? '' : 's'} skipped (see above)`,
      );
    ctx.stdout.write(`${lines.join('\n')}\n`);
  }
  return result.skipped > 0 ? EXIT_FINDINGS : EXIT_OK;
}
