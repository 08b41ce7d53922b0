import type { HostScheduler } from '../http/scheduler.js';
import type { RobotsFetchResult } from '../robots/fetch.js';
import { addressRefusal } from '../robots/gate.js';
import type { ResolvedCrawlOptions } from './options.js';
import type { Recorder } from './recorder.js';

/**
 * What a new robots.txt outcome does to the crawl: a warning when it is unreachable (its origin is
 * not crawled while it stays so), and its Crawl-delay (capped) for the host, returned so that a
 * crawl shared through PostgreSQL gives it to its send slots too.
 */
export function applyRobots(
  o: ResolvedCrawlOptions,
  recorder: Recorder,
  hosts: HostScheduler,
  origin: string,
  result: RobotsFetchResult,
): number | undefined {
  // A host the address policy refuses is reported per URL (crawl-address-refused), not as robots.txt.
  if (result.status === 'unreachable' && addressRefusal(result) === undefined) {
    recorder.report({
      code: 'robots-unreachable',
      severity: 'warning',
      message: `${result.url}: ${result.error?.message ?? 'unreachable'}; nothing on ${origin} is crawled (RFC 9309: complete disallow)`,
      url: result.url,
    });
  }
  const delay = result.robots.crawlDelay(o.robotsAgent);
  if (delay === undefined || delay <= 0) return undefined;
  let ms = Math.round(delay * 1000);
  if (ms > o.maxCrawlDelayMs) {
    recorder.report({
      code: 'crawl-delay-capped',
      severity: 'warning',
      message: `${result.url} asks for Crawl-delay: ${delay} s; waiting ${o.maxCrawlDelayMs / 1000} s between requests instead (--max-crawl-delay)`,
      url: result.url,
    });
    ms = o.maxCrawlDelayMs;
  }
  hosts.setCrawlDelay(origin, ms);
  return ms;
}
