/**
 * The validator's options, checked and completed once; mistakes (an unknown rule code, a bad
 * number) throw `ERR_OPTIONS` before any work starts.
 */

import { closestWords, wholeNumber } from '../core/checks.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { HttpClient } from '../http/client.js';
import { SITEMAP_TIMEOUT_MS } from '../parser/options.js';
import type { RobotsTxt } from '../robots/robots-txt.js';
import { isRuleCode, RULES } from './rules.js';
import type { LiveOptions, RuleSetting, ValidateOptions, ValidateProgress } from './types.js';

export interface ResolvedLiveOptions {
  concurrency: number;
  perHost: number;
  timeoutMs: number;
  maxPageBytes: number;
  retries: number;
  maxRetryAfterMs: number;
  method: 'auto' | 'get';
  limit: number;
  ignoreRobots: boolean;
}

export interface ResolvedValidateOptions {
  recursive: boolean;
  discover: boolean;
  sitemapUrl: string | undefined;
  robots: string | RobotsTxt | false | undefined;
  agent: string;
  allowHosts: readonly string[];
  live: ResolvedLiveOptions | undefined;
  settings: ReadonlyMap<string, RuleSetting>;
  maxDiagnostics: number;
  maxPerRule: number;
  onDiagnostic: ((d: Diagnostic) => void) | undefined;
  onProgress: ((p: ValidateProgress) => void) | undefined;
  timeoutMs: number | undefined;
  /** The run's HTTP client (the caller's fetch or dispatcher, headers, User-Agent, address policy). */
  client: HttpClient;
  now: () => number;
  signal: AbortSignal | undefined;
}

const SETTINGS: ReadonlySet<string> = new Set(['error', 'warning', 'info', 'off']);

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

/** The codes closest to a mistyped `code` (edit distance), for "did you mean" hints. */
export function similarCodes(code: string): string[] {
  return closestWords(code.toLowerCase(), Object.keys(RULES));
}

/** Throws `ERR_OPTIONS` for a code that is not in the rule table. */
export function checkRuleCode(code: string, where: string): void {
  if (isRuleCode(code)) return;
  const near = similarCodes(code);
  throw bad(
    `${where}: "${code}" is not a rule code`,
    near.length > 0
      ? `did you mean ${near.join(', ')}? (every code is in docs/rules.md)`
      : 'every code is in docs/rules.md',
  );
}

/** Merges `rules` and `disable` into one map, checking every code and value. */
export function ruleSettings(
  rules: Readonly<Record<string, RuleSetting>> | undefined,
  disable: readonly string[] | undefined,
): Map<string, RuleSetting> {
  const out = new Map<string, RuleSetting>();
  for (const [code, setting] of Object.entries(rules ?? {})) {
    checkRuleCode(code, 'rules');
    if (!SETTINGS.has(setting)) {
      throw bad(`rules: "${code}" must be error, warning, info or off, not ${JSON.stringify(setting)}`);
    }
    out.set(code, setting);
  }
  for (const code of disable ?? []) {
    checkRuleCode(code, 'disable');
    out.set(code, 'off');
  }
  return out;
}

/** The defaults of the live checks, read by the CLI's help too. */
export const LIVE_DEFAULTS: Readonly<
  Record<'concurrency' | 'perHost' | 'timeoutMs' | 'maxPageBytes' | 'retries' | 'maxRetryAfterMs', number>
> = {
  concurrency: 8,
  perHost: 2,
  timeoutMs: 15_000,
  maxPageBytes: 2 * 1024 * 1024,
  retries: 2,
  maxRetryAfterMs: 60_000,
};

function resolveLive(live: boolean | LiveOptions | undefined): ResolvedLiveOptions | undefined {
  if (live === undefined || live === false) return undefined;
  const o: LiveOptions = live === true ? {} : live;
  const method = o.method ?? 'auto';
  if (method !== 'auto' && method !== 'get')
    throw bad(`live.method must be auto or get, not ${String(method)}`);
  return {
    concurrency: wholeNumber('live.concurrency', o.concurrency, LIVE_DEFAULTS.concurrency, { min: 1 }),
    perHost: wholeNumber('live.perHost', o.perHost, LIVE_DEFAULTS.perHost, { min: 1 }),
    timeoutMs: wholeNumber('live.timeoutMs', o.timeoutMs, LIVE_DEFAULTS.timeoutMs, { min: 1 }),
    maxPageBytes: wholeNumber('live.maxPageBytes', o.maxPageBytes, LIVE_DEFAULTS.maxPageBytes, { min: 1024 }),
    retries: wholeNumber('live.retries', o.retries, LIVE_DEFAULTS.retries, { min: 0 }),
    maxRetryAfterMs: wholeNumber('live.maxRetryAfterMs', o.maxRetryAfterMs, LIVE_DEFAULTS.maxRetryAfterMs, {
      min: 0,
    }),
    method,
    ignoreRobots: o.ignoreRobots === true,
    limit:
      o.limit === undefined ? Number.POSITIVE_INFINITY : wholeNumber('live.limit', o.limit, 0, { min: 1 }),
  };
}

export function resolveValidateOptions(o: ValidateOptions = {}): ResolvedValidateOptions {
  if (o.sitemapUrl !== undefined && !/^https?:\/\/[^/]/i.test(o.sitemapUrl)) {
    throw bad(
      `sitemapUrl "${o.sitemapUrl}" is not an absolute http(s) URL`,
      'give the public URL the sitemap is served at, such as https://www.example.com/sitemap.xml',
    );
  }
  const agent = o.agent ?? 'Googlebot';
  if (typeof agent !== 'string' || agent.trim() === '')
    throw bad('agent must be a crawler name such as Googlebot');
  const client = new HttpClient({
    fetch: o.fetch,
    dispatcher: o.dispatcher,
    headers: o.headers,
    userAgent: o.userAgent,
    addressPolicy: o.addressPolicy,
  });
  const discover = o.discover === true;
  if (discover && o.sitemapUrl !== undefined) {
    throw bad('discover finds the sitemaps of a site over http(s); sitemapUrl is for a local file');
  }
  return {
    // A discovered sitemap is read as a tree unless recursive: false says otherwise.
    recursive: o.recursive ?? discover,
    discover,
    sitemapUrl: o.sitemapUrl,
    robots: o.robots,
    agent: agent.trim(),
    allowHosts: [...(o.allowHosts ?? [])],
    live: resolveLive(o.live),
    settings: ruleSettings(o.rules, o.disable),
    maxDiagnostics: wholeNumber('maxDiagnostics', o.maxDiagnostics, 10_000, { min: 0 }),
    maxPerRule: wholeNumber('maxPerRule', o.maxPerRule, 1000, { min: 0 }),
    onDiagnostic: o.onDiagnostic,
    onProgress: o.onProgress,
    timeoutMs:
      o.timeoutMs === undefined
        ? undefined
        : wholeNumber('timeoutMs', o.timeoutMs, SITEMAP_TIMEOUT_MS, { min: 1 }),
    client,
    now: o.now ?? Date.now,
    signal: o.signal,
  };
}
