import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { UsageError } from '../exit.js';
import { ALLOW_PRIVATE_HELP, STRICT_ADDRESSES_HELP } from '../flags.js';
import { type BingStatusFlags, runBingStatus } from './status-bing.js';
import { addEngineOptions, enginesOf } from './submit-bing.js';

/** `sitemapkit status --engine ENGINE`: what a search engine says of the site's sitemaps. */
export function registerStatus(program: Command, ctx: CliContext): void {
  const status = program
    .command('status')
    .description("Show a search engine's verdict on the site's sitemaps (Bing Webmaster Tools)");
  addEngineOptions(status, 'status')
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .option('--json', "print the engine's answer as one JSON object, with the engine's own field names")
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit status --engine bing --site https://www.example.com/       # key from BING_WEBMASTER_API_KEY
  sitemapkit status --engine bing --site https://www.example.com/ --json

Exit codes: 0 shown; 2 usage error or the engine could not be asked (a wrong key, a site not verified).`,
    )
    .action(async (flags: BingStatusFlags) => {
      if (flags.engine.length === 0) throw new UsageError('give --engine bing');
      const engines = enginesOf(flags.engine, ['bing']);
      for (const engine of engines) if (engine === 'bing') ctx.exitCode = await runBingStatus(flags, ctx);
    });
}
