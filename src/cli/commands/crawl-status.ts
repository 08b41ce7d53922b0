import type { Command } from 'commander';
import { SitemapkitError } from '../../core/errors.js';
import { redactDatabaseUrl } from '../../sources/sql-db.js';
import type { CliContext } from '../context.js';
import { deleteCrawlCommand, withDatabase } from '../crawl-commands.js';
import { EXIT_OK } from '../exit.js';
import {
  crawlIdArg,
  dropSharedCrawl,
  isSharedState,
  type SharedStatus,
  sharedCrawlStatus,
} from '../shared-crawl.js';

interface StatusFlags {
  state: string;
  crawlId: string;
  json?: boolean;
  drop?: boolean;
  force?: boolean;
}

export function registerCrawlStatus(program: Command, ctx: CliContext): void {
  program
    .command('crawl-status')
    .description('Show the progress of a shared crawl (crawl --state postgres://…), or drop it')
    .requiredOption('--state <url>', 'the crawl database, postgres://USER:PASSWORD@HOST:PORT/DATABASE')
    .requiredOption('--crawl-id <id>', 'the crawl (crawl says it when it starts)', crawlIdArg)
    .option('--json', 'the status as JSON')
    .option('--drop', 'remove the crawl from the database (its schema); refused while workers are alive')
    .option('--force', 'with --drop: drop even while workers are alive (they fail at their next statement)')
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit crawl-status --state postgres://crawler@db.internal/crawls --crawl-id example_com
  sitemapkit crawl-status --state postgres://crawler@db.internal/crawls --crawl-id example_com --json
  sitemapkit crawl-status --state postgres://crawler@db.internal/crawls --crawl-id example_com --drop

A worker is alive while its heartbeat is younger than its lease. Exit codes: 0 shown (or dropped);
2 usage error, no such crawl, the database unreachable, or --drop refused while workers are alive.`,
    )
    .action(async (flags: StatusFlags) => {
      ctx.exitCode = await runStatus(flags, ctx);
    });
}

async function runStatus(flags: StatusFlags, ctx: CliContext): Promise<number> {
  if (flags.force === true && flags.drop !== true) {
    throw new SitemapkitError('ERR_OPTIONS', '--force needs --drop');
  }
  if (!isSharedState(flags.state)) {
    throw new SitemapkitError('ERR_OPTIONS', `--state takes a postgres:// URL, got "${flags.state}"`, {
      hint: 'crawl-status reads a crawl kept in PostgreSQL: --state postgres://USER@HOST/DATABASE',
    });
  }
  const shown = redactDatabaseUrl(flags.state);
  const status = await sharedCrawlStatus(flags.state, flags.crawlId);
  if (status === undefined) {
    // A crawl whose first worker never created its schema leaves only its recorded command.
    if (flags.drop === true) await withDatabase(flags.state, (c) => deleteCrawlCommand(c, flags.crawlId));
    throw new SitemapkitError('ERR_STATE', `there is no crawl "${flags.crawlId}"`, {
      where: shown,
      hint: 'check --crawl-id: crawl says the id when it starts (by default the start host, such as example_com)',
    });
  }
  if (flags.drop === true) {
    if (status.workersAlive > 0 && flags.force !== true) {
      throw new SitemapkitError(
        'ERR_STATE',
        `the crawl "${flags.crawlId}" has ${status.workersAlive} worker${status.workersAlive === 1 ? '' : 's'} alive`,
        {
          where: shown,
          hint: 'stop them first (Ctrl-C returns their pages), wait until their leases expire, or pass --force to drop it under them',
        },
      );
    }
    await dropSharedCrawl(flags.state, flags.crawlId);
    if (flags.json === true)
      ctx.stdout.write(`${JSON.stringify({ ok: true, crawlId: flags.crawlId, dropped: true })}\n`);
    else ctx.stdout.write(`Dropped the crawl "${flags.crawlId}" from ${shown}\n`);
    return EXIT_OK;
  }
  if (flags.json === true) {
    ctx.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
    return EXIT_OK;
  }
  ctx.stdout.write(`${statusLines(flags.crawlId, status).join('\n')}\n`);
  return EXIT_OK;
}

function statusLines(id: string, s: SharedStatus): string[] {
  const n = (v: number): string => v.toLocaleString('en-US');
  const lines = [
    `Crawl "${id}": ${s.finished ? 'finished' : s.queued + s.leased > 0 ? 'running' : 'frontier empty, outputs not written yet'}`,
    `  pages: ${n(s.done)} done, ${n(s.queued)} queued, ${n(s.leased)} leased, ${n(s.errors)} error${s.errors === 1 ? '' : 's'}`,
    `  rate: ${s.ratePerSecond.toFixed(s.ratePerSecond < 10 ? 1 : 0)} pages fetched/s over the last minute`,
    `  workers: ${s.workersAlive} alive of ${s.workers.length}`,
  ];
  for (const w of s.workers) {
    const state = w.alive ? 'alive' : w.ended === null ? 'gone (no heartbeat)' : `ended (${w.ended})`;
    lines.push(
      `    ${w.id}: ${state}, ${n(w.pages)} page${w.pages === 1 ? '' : 's'} fetched, ${n(w.withoutFetch)} URL${w.withoutFetch === 1 ? '' : 's'} without a fetch, last heartbeat ${w.heartbeat}`,
    );
  }
  if (s.finisher !== null) lines.push(`  outputs written by: ${s.finisher}`);
  return lines;
}
