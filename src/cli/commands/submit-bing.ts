/**
 * `sitemapkit submit --engine bing`: Bing Webmaster Tools. `--sitemap URL` submits the sitemap
 * (SubmitFeed); `--urls FILE`, `--changes FILE` and a local build (`--sitemap DIR`, with `--since`)
 * submit URL batches within the site's daily quota (SubmitUrlBatch). What is not accepted stays in
 * the submission journal for the next run. The API key is never printed.
 */

import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import { type Diagnostic, formatDiagnostic } from '../../core/diagnostics.js';
import type { BingRequest } from '../../submit/bing/api.js';
import {
  type BingBatchResult,
  type BingReport,
  type BingSubmitOptions,
  submitSitemapsToBing,
  submitUrlsToBing,
} from '../../submit/bing/submit.js';
import { readChangeSet } from '../../submit/change-set-source.js';
import { diffUrls } from '../../submit/changes.js';
import { openSubmissionJournal } from '../../submit/journal.js';
import { readSourceUrls, readUrlList, type SourceUrl } from '../../submit/url-source.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { type AddressFlags, addressPolicyOf } from '../flags.js';
import { writeOut } from '../io.js';
import { checkInputFile, namingPath } from '../paths.js';

/** The flags `submit` gains for the engines' own APIs (shared with `status`). */
export interface EngineFlags extends AddressFlags {
  engine: string[];
  site?: string;
  apiKey?: string;
  bingApiRoot?: string;
  journalDir?: string;
  journal: boolean;
}

/** Adds Bing's own options (the key and the API root) to `submit` and `status`. */
export function addBingOptions(cmd: Command): Command {
  return cmd
    .option('--api-key <key>', 'Bing Webmaster API key (default: $BING_WEBMASTER_API_KEY); never printed')
    .option(
      '--bing-api-root <url>',
      'Bing Webmaster API root (default https://ssl.bing.com/webmaster/api.svc/json/)',
    );
}

/** The Bing options every command resolves the same way: site, key (flag or environment), root. */
export function bingOptionsOf(
  flags: EngineFlags,
  ctx: CliContext,
  env: NodeJS.ProcessEnv = process.env,
): Pick<BingSubmitOptions, 'siteUrl' | 'apiKey' | 'signal' | 'addressPolicy'> & { apiRoot?: string } {
  if (flags.site === undefined)
    throw new UsageError('--engine bing needs --site SITE (the site as listed in Bing Webmaster Tools)');
  const apiKey = flags.apiKey ?? env['BING_WEBMASTER_API_KEY'];
  if (apiKey === undefined || apiKey.trim() === '')
    throw new UsageError('--engine bing needs an API key: --api-key KEY or BING_WEBMASTER_API_KEY');
  const addressPolicy = addressPolicyOf(flags);
  return {
    siteUrl: flags.site,
    apiKey,
    signal: ctx.signal,
    ...(flags.bingApiRoot === undefined ? {} : { apiRoot: flags.bingApiRoot }),
    ...(addressPolicy === undefined ? {} : { addressPolicy }),
  };
}

/** The submit flags this module reads. */
export interface BingSubmitFlags extends EngineFlags {
  urls?: string;
  sitemap?: string;
  since?: string;
  changes?: string;
  dryRun?: boolean;
  json?: boolean;
  format: 'text' | 'json';
}

/** Where the journal goes: `--journal-dir`, else the folder of the build or input file, else here. */
export async function journalDirOf(flags: {
  journalDir?: string;
  sitemap?: string;
  changes?: string;
  urls?: string;
}): Promise<string> {
  if (flags.journalDir !== undefined) return flags.journalDir;
  const local = [flags.sitemap, flags.changes, flags.urls].find(
    (s) => s !== undefined && s !== '-' && !/^https?:\/\//i.test(s),
  );
  if (local === undefined) return '.';
  const info = await stat(local).catch(() => undefined);
  return info?.isDirectory() === true ? local : dirname(local);
}

async function* locs(source: AsyncIterable<SourceUrl>): AsyncGenerator<string> {
  for await (const u of source) yield u.loc;
}

/** Runs `submit --engine bing`; returns the exit code. */
export async function runBingSubmit(flags: BingSubmitFlags, ctx: CliContext): Promise<number> {
  const json = flags.json === true || flags.format === 'json';
  const base = bingOptionsOf(flags, ctx);
  if ([flags.urls, flags.sitemap, flags.changes].filter((f) => f !== undefined).length !== 1)
    throw new UsageError('give one of --urls FILE, --sitemap URL|SOURCE or --changes FILE');
  const sitemapUrl =
    flags.sitemap !== undefined && /^https?:\/\//i.test(flags.sitemap) ? flags.sitemap : undefined;
  if (sitemapUrl !== undefined && flags.since !== undefined)
    throw new UsageError('--since compares builds: with --engine bing, give --sitemap the build folder');
  const onDiagnostic = (d: Diagnostic): void => {
    if (d.severity === 'error') ctx.stderr.write(`${formatDiagnostic(d)}\n`);
  };
  let source: AsyncIterable<string>;
  if (sitemapUrl !== undefined) {
    source = (async function* () {
      yield sitemapUrl;
    })();
  } else if (flags.changes !== undefined) {
    if (flags.changes !== '-')
      await checkInputFile(flags.changes, 'read the change set', 'give the file generate --changes wrote');
    const records = readChangeSet(flags.changes, { added: 0, changed: 0, removed: 0 }, ctx.stdin);
    source = (async function* () {
      for await (const c of records) yield c.loc;
    })();
  } else if (flags.urls !== undefined) {
    if (flags.urls !== '-')
      await checkInputFile(flags.urls, 'read the URL list', 'give a text file of URLs, one a line');
    source = locs(namingPath(readUrlList(flags.urls, { stdin: ctx.stdin }), flags.urls, 'read the URL list'));
  } else {
    const current = flags.sitemap!;
    const sourceOptions = { stdin: ctx.stdin, signal: ctx.signal, onDiagnostic };
    if (flags.since === undefined) source = locs(readSourceUrls(current, sourceOptions));
    else {
      const since = flags.since;
      const changes = diffUrls(
        () => readSourceUrls(since, sourceOptions),
        readSourceUrls(current, sourceOptions),
      );
      source = (async function* () {
        for await (const c of changes) yield c.loc;
      })();
    }
  }
  const channel = sitemapUrl !== undefined ? 'bing-sitemaps' : 'bing-urls';
  const journal =
    flags.journal === false
      ? undefined
      : await openSubmissionJournal({
          dir: await journalDirOf(flags),
          channel,
          target: new URL(base.siteUrl).href,
        });
  const onBatch = (b: BingBatchResult): void => {
    if (json || b.status === 'dry-run') return;
    ctx.stderr.write(
      `${b.status.padEnd(9)} ${b.message}\n${b.error?.hint === undefined ? '' : `  ${b.error.hint}\n`}`,
    );
  };
  const options: BingSubmitOptions = {
    ...base,
    dryRun: flags.dryRun === true,
    onBatch,
    ...(journal === undefined ? {} : { journal }),
  };
  const report =
    sitemapUrl !== undefined
      ? await submitSitemapsToBing(source, options)
      : await submitUrlsToBing(source, options);
  if (json) {
    await writeOut(ctx.stdout, `${JSON.stringify(jsonReport(report, flags.dryRun === true))}\n`);
  } else {
    // Exactly the requests a real run would make, in order, the key redacted.
    if (flags.dryRun === true) await writeOut(ctx.stdout, report.requests.map(requestText).join(''));
    for (const i of report.invalid) ctx.stderr.write(`left out  ${i.url}: ${i.reason}\n`);
    if (report.invalidCount > report.invalid.length)
      ctx.stderr.write(`left out  … and ${report.invalidCount - report.invalid.length} more\n`);
    ctx.stderr.write(`${summary(report, sitemapUrl !== undefined, flags.dryRun === true)}\n`);
  }
  return report.failed > 0 || report.kept > 0 || report.invalidCount > 0 ? EXIT_FINDINGS : EXIT_OK;
}

/** A request as `--dry-run` prints it: method and URL (key redacted), then its JSON body. */
export function requestText(r: BingRequest): string {
  return `${r.method} ${r.url}\n${r.body === undefined ? '' : `${r.body}\n`}`;
}

function summary(report: BingReport, sitemaps: boolean, dry: boolean): string {
  const what = sitemaps ? 'sitemap(s)' : 'URL(s)';
  if (dry) {
    return `dry run: ${report.submitted} ${what} would be submitted to Bing for ${report.siteUrl} in ${report.requests.length} request(s) (shown with the API key redacted); nothing was sent`;
  }
  const parts = [
    `${report.submitted} ${what} submitted to Bing for ${report.siteUrl}`,
    `${report.failed} failed`,
  ];
  if (report.kept > 0 || report.journal?.kept)
    parts.push(`${report.journal?.kept ?? report.kept} kept for the next run`);
  parts.push(`${report.invalidCount} left out`);
  let text = parts.join(', ');
  if (report.quotaLeft !== undefined) text += `; quota left today: ${report.quotaLeft}`;
  if (report.journal !== undefined && report.journal.fromEarlier > 0)
    text += `\n(${report.journal.fromEarlier} of them kept by earlier runs, sent first)`;
  if (report.journal?.kept !== undefined && report.journal.kept > 0)
    text += `\njournal: ${report.journal.path}`;
  return text;
}

function jsonReport(report: BingReport, dryRun: boolean): Record<string, unknown> {
  const batches = report.batches.map(({ urlList: _list, error, request: _r, ...b }) => ({
    ...b,
    ...(error === undefined
      ? {}
      : {
          error: {
            code: error.code,
            ...('reason' in error ? { reason: error.reason } : {}),
            message: error.message,
            hint: error.hint,
          },
        }),
  }));
  return { engine: 'bing', ...report, batches, dryRun };
}
