/**
 * `sitemapkit status --engine google`: the sitemaps Search Console knows for the property (or the
 * ones named), one block each, and on request the URL Inspection verdict of some pages, named or
 * sampled from the sitemaps, within the API's daily quota. `--json` prints `{ "sitemaps": [...] }`
 * with the API's field names (and `inspections` when pages were inspected).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { buildSitemaps, isSitemapUrl } from '../../submit/build-sitemaps.js';
import { openSearchConsole, type SearchConsoleClient } from '../../submit/google/client.js';
import { GoogleApiError } from '../../submit/google/errors.js';
import type { GoogleInspection, GoogleSitemap } from '../../submit/google/types.js';
import { readSourceUrls } from '../../submit/url-source.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { addressPolicyOf } from '../flags.js';
import { writeOut } from '../io.js';
import { checkGoogleFlags, type GoogleFlags, googleOptions } from './google-flags.js';

/** Pages the URL Inspection API inspects a day per property. */
export const INSPECT_QUOTA = 2000;
/** Pages it inspects a minute per property: the other quota, kept by waiting rather than by a 429. */
export const INSPECT_PER_MINUTE = 600;

/**
 * Milliseconds to wait before the next request so that no minute holds more than `perMinute` of
 * them; `sent` holds when each earlier one went out, in order.
 */
export function minuteQuotaDelay(
  sent: readonly number[],
  now: number,
  perMinute: number = INSPECT_PER_MINUTE,
): number {
  if (sent.length < perMinute) return 0;
  return Math.max(0, sent[sent.length - perMinute]! + 60_000 - now);
}

export interface StatusFlags extends GoogleFlags {
  sitemap: string[];
  inspect?: string[];
  inspectSample?: number;
  format: 'text' | 'json';
  json?: boolean;
}

/** A page that was not inspected, and why. */
interface NotInspected {
  url: string;
  reason: string;
}

const en = (n: number): string => n.toLocaleString('en-US');

/** One sitemap as a block of aligned lines; `indexed` is never shown (Google deprecated it). */
export function sitemapBlock(s: GoogleSitemap): string {
  const row = (k: string, v: string): string => `  ${k.padEnd(16)} ${v}\n`;
  const contents = s.contents.map((c) => `${c.type} ${en(c.submitted)}`).join(' · ');
  return (
    `${s.path}\n` +
    row('last submitted', s.lastSubmitted ?? 'never') +
    row('last downloaded', s.lastDownloaded ?? 'never') +
    row('pending', s.isPending ? 'yes' : 'no') +
    row('sitemap index', s.isSitemapsIndex ? 'yes' : 'no') +
    row('errors', en(s.errors)) +
    row('warnings', en(s.warnings)) +
    row('submitted', contents === '' ? '-' : contents)
  );
}

/** One inspected page: its verdict, then why, the last crawl and the canonical Google chose. */
export function inspectionLines(i: GoogleInspection): string {
  const r = i.indexStatusResult;
  const parts = [r.coverageState ?? 'no coverage state'];
  if (r.lastCrawlTime !== undefined) parts.push(`last crawl ${r.lastCrawlTime}`);
  if (r.googleCanonical !== undefined) {
    parts.push(
      r.userCanonical !== undefined && r.userCanonical !== r.googleCanonical
        ? `Google chose ${r.googleCanonical} as canonical, not the page's ${r.userCanonical}`
        : `canonical ${r.googleCanonical}`,
    );
  }
  if (r.robotsTxtState === 'DISALLOWED') parts.push('blocked by robots.txt');
  if (r.indexingState?.startsWith('BLOCKED') === true)
    parts.push(r.indexingState.toLowerCase().replaceAll('_', ' '));
  return `${(r.verdict ?? 'UNKNOWN').padEnd(9)} ${i.inspectionUrl}\n  ${parts.join(' · ')}\n`;
}

/** The sitemaps to show: all Google lists, or those named (a build names its entry points). */
async function readSitemaps(
  gsc: SearchConsoleClient,
  sources: readonly string[],
  unknown: string[],
): Promise<GoogleSitemap[]> {
  if (sources.length === 0) return gsc.listSitemaps();
  const out: GoogleSitemap[] = [];
  for (const source of sources) {
    const urls = isSitemapUrl(source)
      ? [source]
      : (await buildSitemaps(source)).filter((s) => s.reason === 'entry').map((s) => s.url);
    for (const url of urls) {
      try {
        out.push(await gsc.getSitemap(url));
      } catch (e) {
        if (!(e instanceof GoogleApiError) || e.kind !== 'not-found') throw e;
        unknown.push(url);
      }
    }
  }
  return out;
}

/** `n` pages drawn evenly at random from the sources (reservoir sampling), in source order. */
async function samplePages(
  sources: readonly string[],
  n: number,
  flags: StatusFlags,
  ctx: CliContext,
): Promise<string[]> {
  const addressPolicy = addressPolicyOf(flags);
  const options = {
    ...(addressPolicy === undefined ? {} : { addressPolicy }),
    signal: ctx.signal,
  };
  const kept: Array<{ url: string; at: number }> = [];
  const seen = new Set<string>();
  let at = 0;
  for (const source of sources) {
    for await (const u of readSourceUrls(source, options)) {
      if (seen.has(u.loc)) continue;
      seen.add(u.loc);
      if (kept.length < n) kept.push({ url: u.loc, at });
      else {
        const j = Math.floor(Math.random() * (at + 1));
        if (j < n) kept[j] = { url: u.loc, at };
      }
      at++;
    }
  }
  return kept.sort((a, b) => a.at - b.at).map((k) => k.url);
}

async function inspectAll(
  gsc: SearchConsoleClient,
  pages: readonly string[],
  signal: AbortSignal,
  onPage: (i: GoogleInspection, n: number) => Promise<void>,
): Promise<{ inspections: GoogleInspection[]; notInspected: NotInspected[] }> {
  const inspections: GoogleInspection[] = [];
  const notInspected: NotInspected[] = [];
  const sent: number[] = [];
  for (let k = 0; k < pages.length; k++) {
    const page = pages[k]!;
    const wait = minuteQuotaDelay(sent, Date.now());
    if (wait > 0) await delay(wait, undefined, { signal });
    sent.push(Date.now());
    try {
      const i = await gsc.inspectUrl(page);
      inspections.push(i);
      await onPage(i, inspections.length);
    } catch (e) {
      if (!(e instanceof GoogleApiError) || e.kind === 'auth' || e.kind === 'network') throw e;
      if (e.kind === 'rate-limited') {
        // The quota is the property's for the day: the rest would be refused too.
        for (const rest of pages.slice(k)) notInspected.push({ url: rest, reason: e.message });
        break;
      }
      notInspected.push({ url: page, reason: e.message });
    }
  }
  return { inspections, notInspected };
}

export async function runGoogleStatus(flags: StatusFlags, ctx: CliContext): Promise<number> {
  const json = flags.json === true || flags.format === 'json';
  await checkGoogleFlags(flags);
  const named = flags.inspect ?? [];
  if (named.length + (flags.inspectSample ?? 0) > INSPECT_QUOTA)
    throw new UsageError(
      `Google inspects at most ${en(INSPECT_QUOTA)} pages a day per property: ask for fewer`,
    );
  const gsc = await openSearchConsole(googleOptions(flags, ctx.signal));
  try {
    const unknown: string[] = [];
    const sitemaps = await readSitemaps(gsc, flags.sitemap, unknown);
    if (!json) {
      await writeOut(
        ctx.stdout,
        `Google Search Console, ${gsc.site}: ${sitemaps.length} sitemap(s)\n${sitemaps.map((m) => `\n${sitemapBlock(m)}`).join('')}`,
      );
      for (const u of unknown)
        ctx.stderr.write(
          `unknown   ${u}: Google does not know this sitemap (submit it with submit --engine google)\n`,
        );
    }
    let pages = [...named];
    if (flags.inspectSample !== undefined) {
      const sources = flags.sitemap.length > 0 ? flags.sitemap : sitemaps.map((s) => s.path);
      if (sources.length === 0)
        throw new UsageError(
          '--inspect-sample needs sitemaps to sample from: give --sitemap, or submit one first',
        );
      pages = [...new Set([...pages, ...(await samplePages(sources, flags.inspectSample, flags, ctx))])];
    }
    const { inspections, notInspected } = await inspectAll(gsc, pages, ctx.signal, async (i, n) => {
      if (!json) await writeOut(ctx.stdout, `${n === 1 ? '\n' : ''}${inspectionLines(i)}`);
    });
    if (json) {
      const out: Record<string, unknown> = { sitemaps };
      if (unknown.length > 0) out['unknown'] = unknown;
      if (pages.length > 0) {
        out['inspections'] = inspections;
        out['notInspected'] = notInspected;
      }
      await writeOut(ctx.stdout, `${JSON.stringify(out)}\n`);
    } else {
      for (const n of notInspected) ctx.stderr.write(`not inspected ${n.url}: ${n.reason}\n`);
    }
    const findings =
      unknown.length > 0 ||
      notInspected.length > 0 ||
      sitemaps.some((s) => s.errors > 0) ||
      inspections.some((i) => i.indexStatusResult.verdict !== 'PASS');
    return findings ? EXIT_FINDINGS : EXIT_OK;
  } finally {
    await gsc.close();
  }
}
