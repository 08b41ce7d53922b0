import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { type Command, Option } from 'commander';
import { type AuditedCrawlResult, crawlAndAudit } from '../../audit/crawl-audit.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import type { Changefreq } from '../../core/entry.js';
import { isSitemapkitError } from '../../core/errors.js';
import { CHANGEFREQS } from '../../core/limits.js';
import { type CrawlResult, crawl } from '../../crawler/crawl.js';
import { type CrawlOptions, type CrawlProgress, resolveCrawlOptions } from '../../crawler/options.js';
import { ensureDir, removeCreated } from '../../writer/atomic.js';
import {
  type AuditRuleFlags,
  auditOnlyFlags,
  auditRuleFlags,
  auditRules,
  auditSummaryLines,
} from '../audit-flags.js';
import type { CliContext } from '../context.js';
import { defaultState, priorities, shortPath } from '../crawl-flags.js';
import { changesLine, diagnosticLine, progressText, resumeCommand, storeLines } from '../crawl-lines.js';
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, UsageError } from '../exit.js';
import { type CrawlExtrasFlags, crawlExtras, extrasCrawlOptions } from '../extras-flags.js';
import { durationArg, wholeNumberArg } from '../flags.js';
import { appendArg, type ImageFlags, imageFilterOptions, shareArg } from '../input-flags.js';
import { Progress, RateWindow } from '../progress.js';
import { type RenderFlags, renderFlags, renderOptions } from '../render-flags.js';
import { crawlIdArg, defaultCrawlId, isSharedState, workerOptions, wroteOutputs } from '../shared-crawl.js';
import {
  ipcProgress,
  ipcWorker,
  leftShared,
  otherWorkerWrote,
  sendToSupervisor,
  startSharedCrawl,
  workerShare,
} from '../shared-run.js';
import { type SiteCrawlFlags, siteCrawlFlags, siteCrawlOptions } from '../site-crawl-flags.js';
import { maxDropArg, storeName } from '../store-build.js';

export interface CrawlFlags
  extends SiteCrawlFlags,
    ImageFlags,
    CrawlExtrasFlags,
    AuditRuleFlags,
    RenderFlags {
  audit?: boolean;
  auditJunit?: boolean;
  out: string;
  baseUrl?: string;
  publicOrigin?: string;
  state?: string;
  crawlId?: string;
  workers?: number;
  /** Milliseconds. */
  lease?: number;
  /** Milliseconds. */
  connectTimeout?: number;
  resume?: boolean;
  fresh?: boolean;
  recrawl?: boolean;
  changes?: string;
  store?: string;
  maxDrop?: string;
  force?: boolean;
  report: string | false;
  includePdf?: boolean;
  seedSitemaps?: boolean;
  priority: 'none' | 'depth';
  priorityMap?: number[];
  changefreq?: Changefreq;
  gzip?: boolean;
  xsl?: boolean | string;
  html: boolean;
  updateRobots?: string;
  maxUrls?: number;
  maxBytes?: number;
  format: 'text' | 'json';
  json?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** Diagnostics printed per code; the rest are counted. */
const PER_CODE = 20;
/** Seconds between progress lines when stderr is not a terminal. */
const LOG_EVERY_MS = 5000;

export function registerCrawl(program: Command, ctx: CliContext): void {
  const cmd = siteCrawlFlags(
    program
      .command('crawl')
      .description('Crawl a website politely and write its sitemaps, HTML site map and a crawl report')
      .argument('<url...>', 'start URL(s); user:password@ in a URL becomes basic auth for that origin only')
      .requiredOption('--out <dir>', 'folder for the sitemaps (only files of its own manifest are replaced)')
      .option(
        '--base-url <url>',
        'public URL of --out (default: --public-origin or the start origin, plus /)',
      )
      .option(
        '--public-origin <url>',
        'rewrite crawled URLs to this origin or base URL before writing, e.g. https://example.com/docs/15/ (crawl staging, publish for production)',
      )
      .option(
        '--state <file|url>',
        'crawl state database (default: ./.sitemapkit/crawl-HOST.db), or postgres://… for a crawl shared by several workers (docs/crawl.md)',
      )
      .option(
        '--crawl-id <id>',
        'with --state postgres://…: the shared crawl to start or join (default: from the start host, example_com)',
        crawlIdArg,
      )
      .option(
        '--workers <n>',
        'with --state postgres://…: worker processes to start here (default 1; more join with crawl-worker)',
        wholeNumberArg('--workers', 1, 256),
      )
      .option(
        '--lease <duration>',
        "with --state postgres://…: how long a worker's claim on a page lasts; a worker that dies loses its pages to the others after it (default 60s)",
        durationArg('--lease', 's', 5000),
      )
      .option(
        '--connect-timeout <duration>',
        'with --state postgres://…: how long a worker started before its database is up waits for it (default 60s; 0: not at all)',
        durationArg('--connect-timeout', 's'),
      )
      .option(
        '--resume',
        'continue an interrupted crawl from its state (a finished one is not fetched again: its output is rewritten with the options given now)',
      )
      .option(
        '--fresh',
        "delete an unfinished crawl's state and start over (a finished one starts over by itself)",
      )
      .option(
        '--recrawl',
        'bring a finished crawl up to date: conditional requests, changes found on the main text (an interrupted recrawl goes on)',
      )
      .option('--changes <file>', 'write what was added, changed and removed as JSON Lines (for submit)')
      .option(
        '--store <file|url>',
        'publish through the site store (an SQLite file, or postgres://…): stable shards, only changed files rewritten, the publish gate (no HTML site map)',
      )
      .option(
        '--max-drop <limit>',
        'with --store: refuse to publish a crawl that drops more URLs (default 10%)',
        maxDropArg,
      )
      .option('--force', 'with --store: publish even past --max-drop')
      .option('--report <dir>', 'crawl report folder, never inside --out', 'sitemapkit-report')
      .option('--no-report', 'write no crawl report'),
  )
    .option('--include-pdf', 'list PDFs too')
    .option('--seed-sitemaps', "also start from the URLs of the site's existing sitemaps")
    .addOption(
      new Option('--priority <mode>', 'priority from link depth (Google ignores priority)')
        .choices(['none', 'depth'])
        .default('none'),
    )
    .option(
      '--priority-map <list>',
      'priorities by depth 0,1,2,… (default 1,0.8,0.5,0.3); implies --priority depth',
      priorities,
    )
    .addOption(new Option('--changefreq <value>', 'changefreq for every URL').choices([...CHANGEFREQS]))
    // Which page images are listed (src/cli/input-flags.ts, shared with generate --from-dir).
    .option(
      '--image-max-share <share>',
      'leave out images on more than this share of the pages, e.g. a logo (default 0.5; 1 keeps all)',
      shareArg,
    )
    .option('--exclude-images <glob>', 'leave out images whose URL or path matches (repeatable)', appendArg)
    .option('--gzip', 'compress the sitemaps (.gz)')
    .option('--xsl [url]', 'reference an XSL stylesheet: the bundled one (copied into --out) or URL')
    .option('--no-html', 'do not write the HTML site map (sitemap.html)')
    .option('--update-robots <file>', 'add or replace the Sitemap: lines in this robots.txt')
    .option('--max-urls <n>', 'URLs per sitemap file (at most 50000)', wholeNumberArg('--max-urls', 1))
    .option(
      '--max-bytes <n>',
      'uncompressed bytes per sitemap file (at most 52428800)',
      wholeNumberArg('--max-bytes', 1024),
    )
    .option(
      '--audit',
      "also audit the site's published sitemaps against this crawl (as sitemapkit audit does): audit.html, audit.json and audit.csv in the report folder, exit 1 on an error",
    );
  auditRuleFlags(cmd, 'with --audit: ').option(
    '--audit-junit',
    'with --audit: also write audit.junit.xml (JUnit XML, for CI) into the report folder',
  );
  extrasCrawlOptions(renderFlags(cmd))
    .addOption(new Option('--format <format>', 'summary format').choices(['text', 'json']).default('text'))
    .option('--json', 'short for --format json')
    .option('--quiet', 'no progress and no diagnostics, only the summary')
    .option('--verbose', 'a log line for every URL')
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit crawl https://example.com/ --out dist/
  sitemapkit crawl https://example.com/ --out dist/ --concurrency 8 --max-pages 50000 --gzip
  sitemapkit crawl http://localhost:8080/ --out dist/ --public-origin https://www.example.com
  sitemapkit crawl http://localhost:8080/ --out dist/ --public-origin https://example.com/docs/15/
  sitemapkit crawl https://user:pass@staging.example.com/ --out dist/ --header "X-Preview: 1"
  sitemapkit crawl https://example.com/ --out dist/ --resume            # after Ctrl-C or a crash
  sitemapkit crawl https://app.example.com/ --out dist/ --render        # a site built with JavaScript
  sitemapkit crawl https://example.com/ --out dist/ --state site.db --recrawl --changes changes.jsonl
  sitemapkit crawl https://example.com/ --out dist/ --state site.db --recrawl --store site-store.db
  sitemapkit crawl https://example.com/ --out dist/ --audit --audit-junit   # and audit the published sitemaps
  sitemapkit crawl https://example.com/ --out dist/ --state postgres://crawler@db.internal/crawls --workers 4   # shared: crawl-worker joins

Exit codes: 0 the crawl completed and the sitemaps were written (even if some pages were broken);
1 nothing could be listed, --audit found an error, or --store's gate refused a crawl dropping
more than --max-drop of the published URLs (the previous sitemaps stay); 2 usage error (a start URL that --public-origin
and --base-url cannot publish is found before any request) or the crawl could not run (robots.txt
unreachable, state missing, unfinished or locked; with --audit, no published sitemap); 130 interrupted (state saved; the message prints
the command that resumes).`,
    )
    .action(async (urls: string[], flags: CrawlFlags, cmd: Command) => {
      // commander keeps the arguments it parsed (untyped): the resume command repeats them.
      const argv = (cmd.parent ?? cmd) as unknown as { rawArgs: string[] };
      ctx.exitCode = isSharedState(flags.state)
        ? await startSharedCrawl(urls, flags, ctx, checkOptions(urls), (f) =>
            runCrawl(urls, f, ctx, argv.rawArgs),
          )
        : await runCrawl(urls, flags, ctx, argv.rawArgs);
    });
}

/** Refuses bad flags as the crawl would, before a shared crawl records its command and starts workers. */
function checkOptions(urls: string[]): (flags: CrawlFlags) => void {
  return (flags) => {
    try {
      resolveCrawlOptions(
        workerOptions(toOptions(urls, flags), flags.crawlId!, flags.lease, flags.connectTimeout),
      );
    } catch (error) {
      if (!isSitemapkitError(error, 'ERR_OPTIONS')) throw error;
      throw new UsageError(cliNames(`${error.message}${error.hint ? ` (${error.hint})` : ''}`));
    }
  };
}

function toOptions(urls: string[], flags: CrawlFlags): CrawlOptions {
  const o: CrawlOptions = {
    ...siteCrawlOptions(flags),
    ...renderOptions(flags),
    start: urls,
    outDir: flags.out,
    report: flags.report,
    // The CLI writes the HTML site map unless --no-html; the library leaves it to the writer's default.
    sitemaps: { html: flags.html && flags.store === undefined },
  };
  if (flags.baseUrl !== undefined) o.baseUrl = flags.baseUrl;
  if (flags.publicOrigin !== undefined) o.publicOrigin = flags.publicOrigin;
  // The library keeps no state unless told; the CLI keeps one per site so that Ctrl-C can resume.
  const state = flags.state ?? defaultState(urls[0]);
  if (state !== undefined) o.state = state;
  if (flags.resume === true) o.resume = true;
  if (flags.fresh === true) o.fresh = true;
  if (flags.recrawl === true) o.recrawl = true;
  if (flags.changes !== undefined) o.changes = flags.changes;
  if (flags.store !== undefined) {
    o.store = { path: flags.store, force: flags.force === true };
    if (flags.maxDrop !== undefined) o.store.maxDrop = flags.maxDrop;
  }
  if (flags.includePdf === true) o.includePdf = true;
  if (flags.seedSitemaps === true) o.seedSitemaps = true;
  if (flags.priority === 'depth') o.priority = 'depth';
  if (flags.priorityMap !== undefined) o.priorityMap = flags.priorityMap;
  if (flags.changefreq !== undefined) o.changefreq = flags.changefreq;
  o.images = imageFilterOptions(flags);
  const sitemaps = o.sitemaps!;
  if (flags.gzip === true) sitemaps.gzip = true;
  if (flags.xsl !== undefined) sitemaps.xsl = flags.xsl;
  if (flags.updateRobots !== undefined) sitemaps.updateRobots = flags.updateRobots;
  if (flags.maxUrls !== undefined) sitemaps.maxUrlsPerFile = flags.maxUrls;
  if (flags.maxBytes !== undefined) sitemaps.maxBytesPerFile = flags.maxBytes;
  Object.assign(sitemaps, crawlExtras(flags));
  return o;
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** Runs the crawl in this process: the whole crawl, or with a shared `--state`, one worker of it. */
export async function runCrawl(
  urls: string[],
  flags: CrawlFlags,
  ctx: CliContext,
  argv: readonly string[],
): Promise<number> {
  const shared = isSharedState(flags.state);
  const sharedOnly = [
    flags.crawlId && '--crawl-id',
    flags.workers && '--workers',
    flags.lease && '--lease',
    flags.connectTimeout !== undefined && '--connect-timeout',
  ];
  if (!shared && sharedOnly.some(Boolean))
    throw new UsageError(
      `${sharedOnly.find(Boolean)} needs --state postgres://… (workers share a crawl through PostgreSQL)`,
    );
  if (flags.store === undefined && (flags.maxDrop !== undefined || flags.force === true))
    throw new UsageError(
      `${flags.force === true ? '--force' : '--max-drop'} needs --store (the publish gate is the store's)`,
    );
  const needAudit = flags.audit === true ? [] : auditOnlyFlags(flags);
  if (needAudit.length > 0) throw new UsageError(`${needAudit.join(', ')} needs --audit`);
  if (flags.resume === true && flags.fresh === true)
    throw new UsageError('--resume and --fresh exclude each other');
  if (flags.recrawl === true && (flags.resume === true || flags.fresh === true))
    throw new UsageError(
      `--recrawl and --${flags.resume === true ? 'resume' : 'fresh'} exclude each other (--recrawl continues an interrupted recrawl by itself)`,
    );
  // Made here, bounded: the crawler's recursive mkdir loops forever under /proc (issue 11).
  const made = [
    ...(flags.report === false ? [] : await ensureDir(flags.report, 'create the report folder')),
    ...(flags.state === undefined || shared
      ? []
      : await ensureDir(dirname(flags.state), 'create the folder of the crawl state')),
  ];
  const json = flags.json === true || flags.format === 'json';
  const stderr = ctx.stderr as NodeJS.WriteStream;
  const tty = stderr.isTTY === true;
  const shown = new Map<string, number>();
  const hidden = new Map<string, number>();
  const onDiagnostic = (d: Diagnostic): void => {
    if (flags.quiet === true || json) return;
    const n = (shown.get(d.code) ?? 0) + 1;
    if (n > PER_CODE) {
      hidden.set(d.code, (hidden.get(d.code) ?? 0) + 1);
      return;
    }
    shown.set(d.code, n);
    progress.stop();
    ctx.stderr.write(`${diagnosticLine(d)}\n`);
  };
  const progress = new Progress('crawl:', { stream: stderr, enabled: tty && flags.quiet !== true });
  const rates = new RateWindow();
  let lastLog = Date.now();
  const onProgress = (p: CrawlProgress): void => {
    rates.add({ at: p.elapsedMs, done: p.done });
    if (tty) progress.show(progressText(p, rates.estimate(p.queued), 'tty'));
    else if (flags.quiet !== true && !json && Date.now() - lastLog >= LOG_EVERY_MS) {
      lastLog = Date.now();
      ctx.stderr.write(`${progressText(p, rates.estimate(p.queued), 'log')}\n`);
    }
  };
  const crawlId = flags.crawlId ?? defaultCrawlId(urls[0] ?? '');
  const options = shared
    ? workerOptions(toOptions(urls, flags), crawlId, flags.lease, flags.connectTimeout)
    : toOptions(urls, flags);
  options.onDiagnostic = onDiagnostic;
  options.onProgress = ipcWorker() ? ipcProgress() : onProgress;
  if (flags.verbose === true && !json) {
    options.onPage = (e) => {
      progress.stop();
      ctx.stderr.write(
        `crawl page status=${e.status ?? '-'} verdict=${e.verdict} depth=${e.depth} ms=${e.ms ?? '-'} url=${e.url}${e.reason === null ? '' : ` reason=${JSON.stringify(e.reason)}`}\n`,
      );
    };
  }
  options.signal = ctx.signal;
  let result: CrawlResult & Partial<Pick<AuditedCrawlResult, 'audit' | 'auditSkipped'>>;
  try {
    result =
      flags.audit === true
        ? await crawlAndAudit({
            ...options,
            audit: { ...auditRules(flags), junit: flags.auditJunit === true },
          })
        : await crawl(options);
  } catch (error) {
    // Folders made above and left empty by a crawl that failed go again (rmdir: only when empty).
    await removeCreated(made);
    progress.stop();
    printHidden(hidden, ctx);
    if (isSitemapkitError(error, 'ERR_GATE')) {
      if (json)
        ctx.stdout.write(`${JSON.stringify({ ok: false, code: error.code, message: error.message })}\n`);
      else ctx.stderr.write(`sitemapkit: ${error.message} [ERR_GATE]\n  ${cliNames(error.hint ?? '')}\n`);
      return EXIT_FINDINGS;
    }
    if (isSitemapkitError(error) && error.code === 'ERR_NO_URLS') {
      if (json)
        ctx.stdout.write(`${JSON.stringify({ ok: false, code: error.code, message: error.message })}\n`);
      else {
        // The crawl itself finished: output options corrected, --resume writes again without fetching.
        const again =
          options.state !== undefined && existsSync(options.state)
            ? ` (if --base-url or --public-origin was wrong, run again with them corrected and --resume: nothing is fetched again)`
            : '';
        ctx.stderr.write(`sitemapkit: no page could be listed: ${error.message}${again}\n`);
      }
      return EXIT_FINDINGS;
    }
    if (isSitemapkitError(error, 'ERR_ABORTED') || ctx.signal.aborted) {
      ctx.stderr.write(
        `sitemapkit: ${shared ? leftShared(flags.state!, crawlId) : interrupted(options.state, argv)}\n`,
      );
      return EXIT_INTERRUPTED;
    }
    if (isSitemapkitError(error, 'ERR_OPTIONS')) {
      const text = `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
      throw new UsageError(cliNames(text));
    }
    throw error;
  }
  progress.stop();
  printHidden(hidden, ctx);
  if (shared) {
    const wrote = wroteOutputs(result);
    if (ipcWorker()) sendToSupervisor({ kind: 'finished', wroteOutputs: wrote });
    if (!wrote) return otherWorkerWrote(result, crawlId, json, ctx);
  }
  // With --audit, an error it found fails the run, as `audit` does (for CI).
  const exit =
    result.auditSkipped === 'interrupted'
      ? EXIT_INTERRUPTED
      : (result.audit?.counts.error ?? 0) > 0
        ? EXIT_FINDINGS
        : EXIT_OK;
  if (json) {
    const audit = flags.audit === true ? { audit: result.audit ?? null } : {};
    ctx.stdout.write(`${JSON.stringify({ ok: true, ...result, ...audit }, null, 2)}\n`);
    return exit;
  }
  const s = result.stats;
  const leftOut = Object.entries(s.verdicts)
    .filter(([v]) => v !== 'listed')
    .sort((a, b) => b[1] - a[1]);
  const broken = (s.verdicts['broken'] ?? 0) + (s.verdicts['error'] ?? 0);
  const lines = [
    // A shared crawl's counts are the whole crawl's; its requests and time this worker's own.
    `${shared ? `Crawl "${crawlId}" finished (this worker: ${workerShare(result)}, ${plural(s.requests, 'request')} in ${s.seconds.toFixed(1)} s, and wrote the outputs)` : `Crawled ${plural(s.requests, 'request')} in ${s.seconds.toFixed(1)} s (${s.pagesPerSecond.toFixed(0)}/s)`}: ${plural(s.listed, 'page')} in the sitemap, ${plural(s.found - s.listed, 'URL')} left out${broken > 0 ? `, ${broken} broken or failing` : ''}${result.complete ? '' : ` (stopped at --max-pages; ${s.queued.toLocaleString('en-US')} queued: --resume with a larger --max-pages to go on)`}`,
    ...(result.sitemaps === undefined
      ? storeLines(result.store!, storeName(flags.store!, shortPath), shortPath(flags.out))
      : [
          `  sitemaps: ${shortPath(result.sitemaps.entry.path)} (${result.sitemaps.entry.url}), ${plural(result.sitemaps.files.length, 'file')}`,
        ]),
  ];
  const pages = result.sitemaps?.html ?? [];
  // The entry page people open is sitemap.html, whatever the order the pages were written in.
  const entryPage = pages.find((f) => basename(f.path) === 'sitemap.html') ?? pages.at(-1);
  if (entryPage !== undefined) {
    lines.push(`  HTML site map: ${shortPath(entryPage.path)} (${plural(pages.length, 'page')})`);
  } else if (flags.store !== undefined && flags.html)
    lines.push('  HTML site map: none with --store (a store build rewrites only the files that changed)');
  if (result.report !== undefined)
    lines.push(`  report: ${shortPath(result.report.html)} (with urls.csv and urls.jsonl)`);
  if (s.changes !== undefined) lines.push(changesLine(s.changes));
  if (flags.changes !== undefined) lines.push(`  change set: ${shortPath(flags.changes)}`);
  if (result.state !== undefined) lines.push(`  state: ${shared ? result.state : shortPath(result.state)}`);
  if (leftOut.length > 0)
    lines.push(`  left out: ${leftOut.map(([v, n]) => `${v} ${n.toLocaleString('en-US')}`).join(', ')}`);
  if (flags.updateRobots !== undefined) lines.push(`  robots.txt updated: ${flags.updateRobots}`);
  if (flags.audit === true) lines.push(...auditSummaryLines(result));
  ctx.stdout.write(`${lines.join('\n')}\n`);
  return exit;
}

/** The crawl's own library names in its option errors, as a CLI user wrote them. */
function cliNames(text: string): string {
  return text
    .replaceAll('`resume: true`', '--resume')
    .replace(/\bbaseUrl\b/g, '--base-url')
    .replace(/\bpublicOrigin\b/g, '--public-origin');
}

/** What Ctrl-C left behind, and the exact command that goes on from there. */
function interrupted(state: string | undefined, argv: readonly string[]): string {
  if (state === undefined || !existsSync(state)) {
    return 'interrupted before the crawl started: nothing was saved and the previous sitemaps are untouched; run the same command again';
  }
  return `interrupted: the crawl state is saved in ${state} and the previous sitemaps are untouched; to continue, run from this folder:\n  ${resumeCommand(argv)}`;
}

function printHidden(hidden: Map<string, number>, ctx: CliContext): void {
  for (const [code, n] of hidden) ctx.stderr.write(`... and ${n.toLocaleString('en-US')} more ${code}\n`);
}
