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
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { writeOut } from '../io.js';
import { checkGoogleFlags, type GoogleFlags, googleOptions } from './google-flags.js';

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
}

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

function resultJson(r: GoogleSubmitResult, reason: BuildSitemap['reason']): Record<string, unknown> {
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
  const requests: GoogleRequest[] = [];
  const gsc = await openSearchConsole({
    ...googleOptions(flags, ctx.signal),
    dryRun,
    ...(dryRun ? { onRequest: (r: GoogleRequest) => requests.push(r) } : {}),
  });
  const results: Array<{ r: GoogleSubmitResult; reason: BuildSitemap['reason'] }> = [];
  try {
    for (const s of sitemaps) {
      const r = await gsc.submitSitemap(s.url);
      results.push({ r, reason: s.reason });
      if (json) continue;
      if (dryRun) await writeOut(ctx.stdout, requests.splice(0).map(requestText).join(''));
      const why = s.reason === 'entry' ? 'entry point' : 'changed';
      const line =
        r.status === 'failed'
          ? `failed    ${r.sitemap}: ${r.message}\n${r.error?.hint === undefined ? '' : `  ${r.error.hint}\n`}`
          : `${r.status.padEnd(9)} ${r.sitemap} (${why})\n`;
      ctx.stderr.write(line);
    }
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
      results: results.map((x) => resultJson(x.r, x.reason)),
      ...(dryRun ? { requests } : {}),
    };
    await writeOut(ctx.stdout, `${JSON.stringify(out)}\n`);
  } else {
    const verb = dryRun ? 'would be submitted' : 'submitted';
    ctx.stderr.write(
      results.length === 0
        ? 'nothing to submit to Google\n'
        : `${ok} sitemap(s) ${verb} to Google for ${gsc.site}, ${failed} failed\n`,
    );
  }
  return failed > 0 ? EXIT_FINDINGS : EXIT_OK;
}
