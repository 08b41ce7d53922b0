/**
 * `sitemapkit status --engine NAME`: what a search engine last saw of a site's sitemaps, and on
 * request its verdict on some pages. Each engine's reading lives in its own module
 * (`status-google.ts`); this file holds the command and its flags.
 */
import { type Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit.js';
import { ALLOW_PRIVATE_HELP, collect, STRICT_ADDRESSES_HELP, wholeNumberArg } from '../flags.js';
import { addGoogleOptions, SITE_HELP } from './google-flags.js';
import { INSPECT_QUOTA, runGoogleStatus, type StatusFlags } from './status-google.js';

export function registerStatus(program: Command, ctx: CliContext): void {
  const status = program
    .command('status')
    .description("Show what a search engine last saw of the site's sitemaps (Google Search Console)")
    .option('--engine <name>', 'whose view: google', collect, [])
    .option('--site <property>', SITE_HELP)
    .option(
      '--sitemap <source>',
      'only these sitemaps (URLs, repeatable); with --inspect-sample, where the sample comes from (a sitemap URL or a build folder)',
      collect,
      [],
    )
    .option('--inspect <url...>', 'the URL Inspection verdict of these pages (indexed or not, and why)')
    .option(
      '--inspect-sample <n>',
      `inspect N pages sampled from the sitemaps (at most ${INSPECT_QUOTA.toLocaleString('en-US')}, Google's daily quota per property)`,
      wholeNumberArg('--inspect-sample', 1, INSPECT_QUOTA),
    )
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--json', 'short for --format json: print { "sitemaps": [...] } with the API\'s field names');
  addGoogleOptions(status)
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit status --engine google --site sc-domain:example.com --credentials key.json
  sitemapkit status --engine google --site https://www.example.com/ --inspect https://www.example.com/pricing
  sitemapkit status --engine google --site sc-domain:example.com --sitemap dist/ --inspect-sample 50

Google's figures per sitemap: last submitted, last downloaded, pending, index or not, errors,
warnings, and URLs submitted per content type (Google no longer reports how many are indexed:
inspect pages for that). See docs/engines.md.

Exit codes: 0 no errors, every page inspected indexed; 1 a sitemap with errors, unknown to Google,
or a page not indexed (or not inspected: quota); 2 usage error or could not run.`,
    )
    .action(async (flags: StatusFlags & { engine: string[] }) => {
      const engines = [...new Set(flags.engine.map((e) => e.toLowerCase()))];
      if (engines.length === 0) throw new UsageError('give --engine google');
      for (const e of engines) if (e !== 'google') throw new UsageError(`--engine takes google, not "${e}"`);
      ctx.exitCode = await runGoogleStatus(flags, ctx);
    });
}
