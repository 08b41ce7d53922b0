/**
 * The flags of how a site is crawled (politeness, robots.txt, agents, scope, URL parameters),
 * shared by `crawl` and `audit` so that both read and word them alike.
 */
import type { Command } from 'commander';
import type { CrawlOptions } from '../crawler/options.js';
import { list, num } from './crawl-flags.js';
import { UsageError } from './exit.js';
import {
  type AddressFlags,
  ALLOW_PRIVATE_HELP,
  addressPolicyOf,
  collect,
  durationArg,
  parseHeaders,
  STRICT_ADDRESSES_HELP,
  wholeNumberArg,
} from './flags.js';

export interface SiteCrawlFlags extends AddressFlags {
  concurrency?: number;
  hostConcurrency?: number;
  rate?: number;
  robots: boolean;
  /** Milliseconds (the flag reads a duration; a bare number is seconds). */
  maxCrawlDelay?: number;
  userAgent?: string;
  robotsAgent?: string;
  metaAgent: string[];
  header: string[];
  timeout?: number;
  retries?: number;
  maxPageBytes?: number;
  host: string[];
  subdomains?: boolean;
  pathPrefix?: string;
  include: string[];
  exclude: string[];
  maxDepth?: number;
  maxPages?: number;
  keepParams?: string[];
  dropParams?: string[];
  keepTracking?: boolean;
  trapGuards: boolean;
  maxPerPattern?: number;
  followNofollow?: boolean;
}

/** The crawl options those flags set. */
export type SiteCrawlOptions = Omit<CrawlOptions, 'start' | 'outDir'>;

/** Adds the flags of how a site is crawled to `cmd`. */
export function siteCrawlFlags(cmd: Command): Command {
  return cmd
    .option('--concurrency <n>', 'requests in flight at once (default 4)', wholeNumberArg('--concurrency', 1))
    .option(
      '--host-concurrency <n>',
      'requests in flight at once per host (default: --concurrency)',
      wholeNumberArg('--host-concurrency', 1),
    )
    .option(
      '--rate <n>',
      'requests per second per host, 0 for no limit (a longer robots.txt Crawl-delay wins)',
      num('--rate'),
    )
    .option('--no-robots', 'ignore robots.txt (only for sites you own, such as a staging build)')
    .option(
      '--max-crawl-delay <duration>',
      'longest robots.txt Crawl-delay obeyed, such as 30s or 2m; a bare number is seconds (default 30s)',
      durationArg('--max-crawl-delay', 's'),
    )
    .option('--user-agent <ua>', 'User-Agent header')
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .option(
      '--robots-agent <token>',
      'product token matched in robots.txt (default: from the User-Agent, "sitemapkit")',
    )
    .option(
      '--meta-agent <name>',
      'also obey <meta name=NAME> and X-Robots-Tag NAME: (repeatable; default googlebot, bingbot)',
      collect,
      [],
    )
    .option(
      '--header <name:value>',
      'extra request header, sent to the start origins only (repeatable)',
      collect,
      [],
    )
    .option(
      '--timeout <duration>',
      'per request, body included, such as 30s or 500ms; a bare number is milliseconds (default 30s)',
      durationArg('--timeout', 'ms', 1),
    )
    .option(
      '--retries <n>',
      'further attempts after a timeout, network error, 429 or 5xx (default 2)',
      wholeNumberArg('--retries'),
    )
    .option(
      '--max-page-bytes <n>',
      'bytes of a page read at most (default 10485760)',
      wholeNumberArg('--max-page-bytes', 1024),
    )
    .option('--host <host>', 'another host to crawl (repeatable)', collect, [])
    .option('--subdomains', 'also crawl subdomains of the start hosts')
    .option('--path-prefix <path>', 'only crawl paths starting with this, e.g. /docs/')
    .option('--include <glob>', 'only crawl URLs whose path?query matches (repeatable)', collect, [])
    .option(
      '--exclude <glob>',
      'neither fetch nor list URLs whose path?query matches (repeatable)',
      collect,
      [],
    )
    .option('--max-depth <n>', 'link hops from a start URL', wholeNumberArg('--max-depth'))
    .option(
      '--max-pages <n>',
      'URLs fetched at most (resume with a larger value to go on)',
      wholeNumberArg('--max-pages', 1),
    )
    .option('--keep-params <names>', 'keep only these query parameters (comma-separated)', list)
    .option('--drop-params <names>', 'remove these query parameters (comma-separated)', list)
    .option('--keep-tracking', 'keep session-ID and tracking parameters (utm_*, gclid, PHPSESSID, …)')
    .option('--no-trap-guards', 'turn off the repeating-segment and calendar trap guards')
    .option(
      '--max-per-pattern <n>',
      'URLs per path and query-parameter names, 0 for no cap (default 1000)',
      wholeNumberArg('--max-per-pattern'),
    )
    .option('--follow-nofollow', 'follow links marked rel=nofollow');
}

/** The crawl options of those flags; throws a usage error for flags that exclude each other. */
export function siteCrawlOptions(flags: SiteCrawlFlags): SiteCrawlOptions {
  if (flags.keepParams !== undefined && flags.dropParams !== undefined) {
    throw new UsageError('--keep-params and --drop-params exclude each other');
  }
  const o: SiteCrawlOptions = {
    robots: flags.robots,
    hosts: flags.host,
    include: flags.include,
    exclude: flags.exclude,
    trapGuards: flags.trapGuards,
    stripTracking: flags.keepTracking !== true,
    headers: parseHeaders(flags.header),
    // The CLI owns its process: a crawl (crawl, crawl-worker, audit) may hold its heap through
    // V8's flags of the whole process (docs/crawl.md, "Memory").
    holdHeap: true,
  };
  if (flags.concurrency !== undefined) o.concurrency = flags.concurrency;
  if (flags.hostConcurrency !== undefined) o.hostConcurrency = flags.hostConcurrency;
  if (flags.rate !== undefined) o.rate = flags.rate;
  if (flags.maxCrawlDelay !== undefined) o.maxCrawlDelayMs = flags.maxCrawlDelay;
  if (flags.userAgent !== undefined) o.userAgent = flags.userAgent;
  if (flags.robotsAgent !== undefined) o.robotsAgent = flags.robotsAgent;
  if (flags.metaAgent.length > 0) o.metaAgents = flags.metaAgent;
  if (flags.timeout !== undefined) o.timeoutMs = flags.timeout;
  if (flags.retries !== undefined) o.retries = flags.retries;
  if (flags.maxPageBytes !== undefined) o.maxPageBytes = flags.maxPageBytes;
  if (flags.subdomains === true) o.subdomains = true;
  if (flags.pathPrefix !== undefined) o.pathPrefix = flags.pathPrefix;
  if (flags.maxDepth !== undefined) o.maxDepth = flags.maxDepth;
  if (flags.maxPages !== undefined) o.maxPages = flags.maxPages;
  if (flags.keepParams !== undefined) o.keepParams = flags.keepParams;
  if (flags.dropParams !== undefined) o.dropParams = flags.dropParams;
  if (flags.maxPerPattern !== undefined) o.maxPerPattern = flags.maxPerPattern;
  if (flags.followNofollow === true) o.followNofollow = true;
  const addressPolicy = addressPolicyOf(flags);
  if (addressPolicy !== undefined) o.addressPolicy = addressPolicy;
  return o;
}
