/**
 * The sitemap against robots.txt: is the sitemap named by a `Sitemap:` line, and may the chosen
 * crawler fetch each URL it lists (with the deciding line)? robots.txt is read once, before the
 * sitemaps, with RFC 9309's status semantics when it is fetched.
 */
import { readFile } from 'node:fs/promises';
import { SitemapkitError } from '../core/errors.js';
import type { HttpClient } from '../http/client.js';
import { type RobotsCache, robotsTxtUrl } from '../robots/fetch.js';
import { parseRobotsTxt, RobotsTxt } from '../robots/robots-txt.js';
import { splitOrigin } from './values.js';

/** robots.txt as the run uses it. */
export interface LoadedRobots {
  robots: RobotsTxt;
  /** Where it came from (URL or path), for messages. */
  source: string;
  /** `scheme://host[:port]` whose URLs it governs; undefined when unknown (then it governs all). */
  origin: string | undefined;
  status: 'ok' | 'unavailable' | 'unreachable';
  /** Why it is unavailable or unreachable. */
  reason?: string;
}

export interface RobotsLoadOptions {
  client: HttpClient;
  /** The run's one cache: the live checks obey the same fetched robots.txt. */
  cache: RobotsCache;
}

/**
 * Reads robots.txt from `spec` (a URL, a path, a parsed file) or, when `spec` is undefined, from the
 * site of the first http(s) root. `siteUrl` is the sitemap's URL when known: it tells which origin
 * a file or parsed robots.txt governs.
 */
export async function loadRobots(
  spec: string | RobotsTxt | false | undefined,
  siteUrl: string | undefined,
  o: RobotsLoadOptions,
): Promise<LoadedRobots | undefined> {
  if (spec === false) return undefined;
  const siteOrigin = siteUrl === undefined ? undefined : splitOrigin(siteUrl)?.origin;
  if (spec instanceof RobotsTxt) {
    return { robots: spec, source: '<robots.txt>', origin: siteOrigin, status: 'ok' };
  }
  const target = spec ?? siteUrl;
  if (target === undefined) return undefined;
  if (/^https?:\/\//i.test(target)) {
    o.client.start(target);
    const r = await o.cache.get(target);
    const loaded: LoadedRobots = {
      robots: r.robots,
      source: r.url,
      origin: splitOrigin(r.url)?.origin,
      status: r.status,
    };
    if (r.error !== undefined) loaded.reason = r.error.message;
    return loaded;
  }
  let text: Buffer;
  try {
    text = await readFile(target);
  } catch (cause) {
    throw new SitemapkitError('ERR_INPUT', 'cannot read the robots.txt file', {
      where: target,
      cause,
      hint: 'give a robots.txt path or the http(s) URL of the site',
    });
  }
  const url = siteUrl === undefined ? undefined : robotsTxtUrl(siteUrl);
  return {
    robots: parseRobotsTxt(text, url === undefined ? {} : { url }),
    source: target,
    origin: siteOrigin,
    status: 'ok',
  };
}

/** Whether `robots` governs `url` (same origin, or the origin is unknown). */
export function governs(robots: LoadedRobots, url: string): boolean {
  if (robots.origin === undefined) return true;
  return (
    url.length > robots.origin.length &&
    url.toLowerCase().startsWith(robots.origin) &&
    url[robots.origin.length] === '/'
  );
}

/** The message of a `robots-sitemap-disallowed` finding, or undefined when `agent` may fetch `url`. */
export function disallowedMessage(robots: LoadedRobots, url: string, agent: string): string | undefined {
  if (robots.robots.isAllowed(url, agent)) return undefined;
  const e = robots.robots.explain(url, agent);
  const by =
    e.rule === null ? e.reason : `${e.rule}${e.line === null ? '' : ` (${robots.source} line ${e.line})`}`;
  return `${url} is disallowed for ${agent} by ${by}`;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/** The message of a `sitemap-not-in-robots` finding for `sitemapUrl`, or undefined when it is named. */
export function notReferencedMessage(robots: LoadedRobots, sitemapUrl: string): string | undefined {
  const listed = robots.robots.sitemaps;
  if (listed.some((s) => sameUrl(s, sitemapUrl))) return undefined;
  const names =
    listed.length === 0
      ? 'it has no Sitemap: line'
      : `it lists ${listed.slice(0, 3).join(', ')}${listed.length > 3 ? ` and ${listed.length - 3} more` : ''}`;
  return `${robots.source} does not name ${sitemapUrl} (${names})`;
}
