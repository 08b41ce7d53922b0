import type { Command } from 'commander';
import { SitemapkitError } from '../../core/errors.js';
import { redactDatabaseUrl } from '../../sources/sql-db.js';
import type { CliContext } from '../context.js';
import { loadCrawlCommand, withDatabase } from '../crawl-commands.js';
import { durationArg, wholeNumberArg } from '../flags.js';
import { crawlIdArg, firstConnect, isSharedState } from '../shared-crawl.js';
import { type CrawlFlags, runCrawl } from './crawl.js';

interface WorkerFlags {
  state: string;
  crawlId: string;
  concurrency?: number;
  /** Milliseconds. */
  connectTimeout?: number;
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

export function registerCrawlWorker(program: Command, ctx: CliContext): void {
  program
    .command('crawl-worker')
    .description(
      'Join a shared crawl (started by crawl --state postgres://…) from this machine; exits when its frontier is empty',
    )
    .requiredOption('--state <url>', 'the crawl database, postgres://USER:PASSWORD@HOST:PORT/DATABASE')
    .requiredOption('--crawl-id <id>', 'the crawl to join (crawl says it when it starts)', crawlIdArg)
    .option(
      '--concurrency <n>',
      "requests in flight at once in this worker (default: the crawl's --concurrency)",
      wholeNumberArg('--concurrency', 1),
    )
    .option(
      '--connect-timeout <duration>',
      'how long to wait for the database when it is not up yet (default 60s; 0: not at all)',
      durationArg('--connect-timeout', 's'),
    )
    .option('--json', 'the summary as JSON')
    .option('--quiet', 'no progress and no diagnostics, only the summary')
    .option('--verbose', 'a log line for every URL')
    .addHelpText(
      'after',
      `
The worker crawls with the start URLs and flags of the crawl command that started the crawl,
which the database keeps. The worker that finds the frontier empty first writes the sitemaps, the
HTML site map and the report, with that command's --out and --report read from its own current
folder; the others exit 0 without writing.

Examples:
  sitemapkit crawl-worker --state postgres://crawler@db.internal/crawls --crawl-id example_com
  PGPASSWORD=… sitemapkit crawl-worker --state postgres://crawler@db.internal/crawls --crawl-id shop --concurrency 16

Exit codes: 0 the frontier is empty (this worker or another wrote the outputs); 1 nothing could be
listed; 2 usage error or the worker could not run (database unreachable, no such crawl); 130
interrupted (this worker's pages went back to the crawl, the other workers go on).`,
    )
    .action(async (flags: WorkerFlags, cmd: Command) => {
      const argv = (cmd.parent ?? cmd) as unknown as { rawArgs: string[] };
      ctx.exitCode = await runWorker(flags, ctx, argv.rawArgs);
    });
}

async function runWorker(flags: WorkerFlags, ctx: CliContext, argv: readonly string[]): Promise<number> {
  if (!isSharedState(flags.state)) {
    throw new SitemapkitError('ERR_OPTIONS', `--state takes a postgres:// URL, got "${flags.state}"`, {
      hint: 'a worker joins a crawl kept in PostgreSQL: --state postgres://USER@HOST/DATABASE',
    });
  }
  // The first connection: a worker started before its database is up (a compose file) waits for it.
  const command = await withDatabase(
    flags.state,
    (c) => loadCrawlCommand(c, flags.crawlId),
    firstConnect(ctx, {
      quiet: flags.quiet === true,
      json: flags.json === true,
      connectTimeout: flags.connectTimeout,
    }),
  );
  if (command === undefined) {
    throw new SitemapkitError('ERR_STATE', `there is no crawl "${flags.crawlId}" to join`, {
      where: redactDatabaseUrl(flags.state),
      hint: `start it with sitemapkit crawl URL --out DIR --state ${redactDatabaseUrl(flags.state)} --crawl-id ${flags.crawlId} (crawl-status lists what the database holds)`,
    });
  }
  // The recorded command, with this process's own choices on top.
  const own: Record<string, unknown> = { state: flags.state, crawlId: flags.crawlId, format: 'text' };
  if (flags.concurrency !== undefined) own['concurrency'] = flags.concurrency;
  if (flags.connectTimeout !== undefined) own['connectTimeout'] = flags.connectTimeout;
  if (flags.json === true) own['json'] = true;
  if (flags.quiet === true) own['quiet'] = true;
  if (flags.verbose === true) own['verbose'] = true;
  const merged = { ...command.flags, ...own } as unknown as CrawlFlags;
  return runCrawl(command.urls, merged, ctx, argv);
}
