/**
 * Whether a page may be indexed and its links followed, from `<meta name="robots">`, agent-specific
 * meta tags and `X-Robots-Tag`: one rule for the crawler and `generate --from-dir`.
 */
import { isNoindex, type PageMeta } from './page-meta.js';

/** `noindex` / `nofollow` as they apply to the agents the sitemap is for. */
export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
  /** Where `noindex` came from, for the report (`meta robots`, `X-Robots-Tag: googlebot`, …). */
  noindexSource: string | undefined;
}

// Directives that carry a value after a colon; anything else before a colon is a user agent.
const VALUED = /^(unavailable_after|max-snippet|max-image-preview|max-video-preview|indexifembedded)$/i;

/**
 * Parses `X-Robots-Tag` values (RFC-less but documented by Google and Bing): comma-separated
 * directives, optionally prefixed by `agent:`, which then applies to the directives after it.
 * Returns directives by lower-cased agent, `*` for those without one.
 */
export function parseXRobotsTag(values: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const value of values) {
    let agent = '*';
    for (const raw of value.split(',')) {
      let token = raw.trim();
      const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(token);
      if (m !== null && !VALUED.test(m[1]!)) {
        agent = m[1]!.toLowerCase();
        token = m[2]!.trim();
      }
      if (token === '') continue;
      const list = out.get(agent) ?? [];
      list.push(token.toLowerCase().split(/\s*:\s*/)[0]!);
      out.set(agent, list);
    }
  }
  return out;
}

/**
 * The directives that decide a page: the generic `<meta name=robots>` and `X-Robots-Tag`, plus
 * the agent-specific ones for each of `agents` (lower-case: `googlebot`, `bingbot`, our token).
 * A `noindex` for any of them keeps the page out (the sitemap is read by all of them).
 */
export function robotsDirectives(
  meta: Pick<PageMeta, 'robots' | 'agentRobots'> | undefined,
  xRobotsTag: readonly string[],
  agents: readonly string[],
): RobotsDirectives {
  const header = parseXRobotsTag(xRobotsTag);
  const sources: Array<[string, readonly string[]]> = [];
  if (meta !== undefined) {
    sources.push(['<meta name="robots">', meta.robots]);
    for (const a of agents) {
      const d = meta.agentRobots[a];
      if (d !== undefined) sources.push([`<meta name="${a}">`, d]);
    }
  }
  const generic = header.get('*');
  if (generic !== undefined) sources.push(['X-Robots-Tag', generic]);
  for (const a of agents) {
    const d = header.get(a);
    if (d !== undefined) sources.push([`X-Robots-Tag: ${a}`, d]);
  }
  let noindexSource: string | undefined;
  let nofollow = false;
  for (const [where, list] of sources) {
    if (noindexSource === undefined && isNoindex(list)) noindexSource = where;
    if (list.includes('nofollow') || list.includes('none')) nofollow = true;
  }
  return { noindex: noindexSource !== undefined, nofollow, noindexSource };
}
