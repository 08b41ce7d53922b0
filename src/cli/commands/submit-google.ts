/**
 * `sitemapkit submit --engine google`: the sitemaps of `--sitemap` (a URL as given; from a build,
 * the entry points and the children the build changed) submitted to Search Console, one line per
 * sitemap; `--dry-run` prints the requests (the signed assertion and the token redacted) and sends
 * nothing. Exit 0 when Google accepted every sitemap, 1 when it refused some, 2 when the run could
 * not start (bad key file, refused key, no network).
 */
import { type BuildSitemap, buildSitemaps } from '../../submit/build-sitemaps.js';
import { openSearchConsole } from '../../submit/google/client.js';
import type { GoogleRequest } from '../../submit/google/exchange.js';
import type { GoogleSubmitResult } from '../../submit/google/types.js';
import { openSubmissionJournal } from '../../submit/journal.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { writeOut } from '../io.js';
import { checkGoogleFlags, type GoogleFlags, googleOptions } from './google-flags.js';
import { journalDirOf } from './submit-bing.js';

export interface GoogleSubmitFlags extends GoogleFlags {
  sitemap?: string;
  /** Every --sitemap given, in order (`sitemap` holds the last). */
  sitemaps?: string[];
  since?: string;
  urls?: string;
  changes?: string;
  dryRun?: boolean;
  format: 'text' | 'json';
  json?: boolean;
  /** `--no-journal` sets it false. */
  journal: boolean;
  journalDir?: string;
}

/**
 * A refusal that sending again cannot change (a sitemap URL Google does not take, a sitemap it does
 * not know): settled in the journal. The rest (quota, server, network, a key or a permission to be
 * fixed) stays for the next run.
 */
const FOR_GOOD = new Set(['bad-request', 'not-found']);

type Reason = BuildSitemap['reason'] | 'kept';

/** Usage checks made before any engine of the run sends anything. */
export async function checkGoogleSubmit(flags: GoogleSubmitFlags): Promise<void> {
  if (flags.urls !== undefined || flags.changes !== undefined)
    throw new UsageError(
      'Google takes sitemaps, not URL lists: give --engine google a --sitemap (a build folder, its manifest, or a sitemap URL)',
    );
  const sources = sourcesOf(flags);
  if (sources.length === 0)
    throw new UsageError('--engine google needs --sitemap: a build folder, its manifest, or a sitemap URL');
  if (flags.since !== undefined && sources.length > 1)
    throw new UsageError('--since compares one build with the previous one: give one --sitemap with it');
  await checkGoogleFlags(flags);
}

function sourcesOf(flags: GoogleSubmitFlags): string[] {
  return flags.sitemaps ?? (flags.sitemap === undefined ? [] : [flags.sitemap]);
}

/** A request as the dry run prints it: method and URL, then the headers and body indented. */
export function requestText(r: GoogleRequest): string {
  const lines = [`${r.method} ${r.url}`];
  for (const [k, v] of Object.entries(r.headers)) if (k !== 'accept') lines.push(`  ${k}: ${v}`);
  if (r.body !== undefined && r.body !== '') lines.push(`  ${r.body}`);
  return `${lines.join('\n')}\n`;
}

function resultJson(r: GoogleSubmitResult, reason: Reason): Record<string, unknown> {
  const { error, ...rest } = r;
  return {
    ...rest,
    reason,
    ...(error === undefined
      ? {}
      : { error: { code: error.code, kind: error.kind, message: error.message, hint: error.hint } }),
  };
}

export async function runGoogleSubmit(flags: GoogleSubmitFlags, ctx: CliContext): Promise<number> {
  const json = flags.json === true || flags.format === 'json';
  const dryRun = flags.dryRun === true;
  const sitemaps: BuildSitemap[] = [];
  const seen = new Set<string>();
  for (const source of sourcesOf(flags)) {
    for (const s of await buildSitemaps(source, flags.since)) {
      if (seen.has(s.url)) continue;
      seen.add(s.url);
      sitemaps.push(s);
    }
  }
  // What earlier runs did not get accepted goes first; the plan is written before anything is sent.
  const journal =
    dryRun || flags.journal === false
      ? undefined
      : await openSubmissionJournal({
          dir: await journalDirOf(flags),
          channel: 'google-sitemaps',
          target: flags.site!,
        });
  const reasons = new Map<string, Reason>(sitemaps.map((s) => [s.url, s.reason]));
  const order: string[] = [];
  if (journal === undefined) order.push(...sitemaps.map((s) => s.url));
  else for await (const url of await journal.plan(sitemaps.map((s) => s.url))) order.push(url);
  const requests: GoogleRequest[] = [];
  const gsc = await openSearchConsole({
    ...googleOptions(flags, ctx.signal),
    dryRun,
    ...(dryRun ? { onRequest: (r: GoogleRequest) => requests.push(r) } : {}),
  });
  const results: Array<{ r: GoogleSubmitResult; reason: Reason }> = [];
  let kept = 0;
  try {
    for (const url of order) {
      const reason = reasons.get(url) ?? 'kept';
      const r = await gsc.submitSitemap(url);
      results.push({ r, reason });
      if (journal !== undefined && (r.status === 'submitted' || FOR_GOOD.has(r.error?.kind ?? '')))
        await journal.settle([url]);
      if (json) continue;
      if (dryRun) await writeOut(ctx.stdout, requests.splice(0).map(requestText).join(''));
      const why =
        reason === 'entry' ? 'entry point' : reason === 'changed' ? 'changed' : 'kept by an earlier run';
      const line =
        r.status === 'failed'
          ? `failed    ${r.sitemap}: ${r.message}\n${r.error?.hint === undefined ? '' : `  ${r.error.hint}\n`}`
          : `${r.status.padEnd(9)} ${r.sitemap} (${why})\n`;
      ctx.stderr.write(line);
    }
    if (journal !== undefined) kept = await journal.finish();
  } finally {
    await gsc.close();
  }
  const failed = results.filter((x) => x.r.status === 'failed').length;
  const ok = results.length - failed;
  if (json) {
    const out = {
      engine: 'google',
      site: gsc.site,
      dryRun,
      submitted: dryRun ? 0 : ok,
      failed,
      ...(journal === undefined
        ? {}
        : { journal: { path: journal.path, fromEarlier: journal.state.pending, kept } }),
      results: results.map((x) => resultJson(x.r, x.reason)),
      ...(dryRun ? { requests } : {}),
    };
    await writeOut(ctx.stdout, `${JSON.stringify(out)}\n`);
  } else {
    const verb = dryRun ? 'would be submitted' : 'submitted';
    ctx.stderr.write(
      results.length === 0
        ? 'nothing to submit to Google\n'
        : `${ok} sitemap(s) ${verb} to Google for ${gsc.site}, ${failed} failed${kept > 0 ? `, ${kept} kept for the next run (journal: ${journal!.path})` : ''}\n`,
    );
  }
  return failed > 0 ? EXIT_FINDINGS : EXIT_OK;
}
