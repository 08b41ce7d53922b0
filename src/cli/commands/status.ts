/**
 * `sitemapkit status --engine NAME`: what a search engine last saw of a site's sitemaps, and (for
 * Google) on request its verdict on some pages. Each engine's reading lives in its own module
 * (`status-google.ts`, `status-bing.ts`); this file holds the command and its flags.
 */
import { type Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit.js';
import { ALLOW_PRIVATE_HELP, collect, STRICT_ADDRESSES_HELP, wholeNumberArg } from '../flags.js';
import { addGoogleOptions } from './google-flags.js';
import { type BingStatusFlags, runBingStatus } from './status-bing.js';
import { INSPECT_QUOTA, runGoogleStatus, type StatusFlags } from './status-google.js';
import { addBingOptions } from './submit-bing.js';

const ENGINES = ['google', 'bing'];

export function registerStatus(program: Command, ctx: CliContext): void {
  const status = program
    .command('status')
    .description(
      "Show what a search engine last saw of the site's sitemaps (Google Search Console, Bing Webmaster Tools)",
    )
    .option('--engine <name>', 'whose view: google or bing (one a run)', collect, [])
    .option(
      '--site <property>',
      'the site: for Google https://www.example.com/ (URL prefix, with the slash) or sc-domain:example.com; for Bing the site as listed in Bing Webmaster Tools',
    )
    .option(
      '--sitemap <source>',
      'Google: only these sitemaps (URLs, repeatable); with --inspect-sample, where the sample comes from (a sitemap URL or a build folder)',
      collect,
      [],
    )
    .option(
      '--inspect <url...>',
      'Google: the URL Inspection verdict of these pages (indexed or not, and why)',
    )
    .option(
      '--inspect-sample <n>',
      `Google: inspect N pages sampled from the sitemaps (at most ${INSPECT_QUOTA.toLocaleString('en-US')}, Google's daily quota per property)`,
      wholeNumberArg('--inspect-sample', 1, INSPECT_QUOTA),
    )
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option(
      '--json',
      "short for --format json: the engine's answer as one JSON object, with the engine's own field names",
    );
  addBingOptions(addGoogleOptions(status))
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit status --engine google --site sc-domain:example.com --credentials key.json
  sitemapkit status --engine google --site https://www.example.com/ --inspect https://www.example.com/pricing
  sitemapkit status --engine google --site sc-domain:example.com --sitemap dist/ --inspect-sample 50
  sitemapkit status --engine bing --site https://www.example.com/       # key from BING_WEBMASTER_API_KEY
  sitemapkit status --engine bing --site https://www.example.com/ --json

Google's figures per sitemap: last submitted, last downloaded, pending, index or not, errors,
warnings, and URLs submitted per content type (Google no longer reports how many are indexed:
inspect pages for that). Bing's: each feed's type, status, submission and last crawl, URLs and
size. See docs/engines.md.

Exit codes: 0 no errors (Google: every page inspected indexed); 1 a sitemap with errors, unknown to
Google, or a page not indexed (or not inspected: quota); 2 usage error or could not run (a wrong
key, a site not verified).`,
    )
    .action(async (flags: StatusFlags & BingStatusFlags) => {
      const engines = [
        ...new Set(flags.engine.flatMap((e) => e.split(',')).map((e) => e.trim().toLowerCase())),
      ].filter((e) => e !== '');
      if (engines.length === 0) throw new UsageError('give --engine google or --engine bing');
      for (const e of engines)
        if (!ENGINES.includes(e)) throw new UsageError(`--engine takes google or bing, not "${e}"`);
      if (engines.length > 1)
        throw new UsageError('status shows one engine a run: give --engine google or --engine bing');
      if (engines[0] === 'bing') {
        const googleOnly = [
          [flags.inspect !== undefined, '--inspect'],
          [flags.inspectSample !== undefined, '--inspect-sample'],
          [flags.sitemap.length > 0, '--sitemap'],
          [flags.credentials !== undefined, '--credentials'],
        ] as const;
        const extra = googleOnly.find(([given]) => given);
        if (extra !== undefined) throw new UsageError(`${extra[1]} is for --engine google`);
        ctx.exitCode = await runBingStatus(
          { ...flags, json: flags.json === true || flags.format === 'json' },
          ctx,
        );
        return;
      }
      if (flags.apiKey !== undefined || flags.bingApiRoot !== undefined)
        throw new UsageError(
          `${flags.apiKey !== undefined ? '--api-key' : '--bing-api-root'} is for --engine bing`,
        );
      ctx.exitCode = await runGoogleStatus(flags, ctx);
    });
}
