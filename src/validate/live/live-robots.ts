/**
 * robots.txt for the live checks, through the crawler's gate over one `RobotsCache` per run: a
 * listed URL is fetched only when robots.txt lets both the crawler the sitemap is checked for
 * (`agent`, whose verdict is the `robots-sitemap-disallowed` finding) and sitemapkit itself (the
 * product token of the User-Agent it sends, which politeness obeys) fetch it.
 */
import type { RobotsCache } from '../../robots/fetch.js';
import { type GateVerdict, RobotsGate } from '../../robots/gate.js';
import type { PageFinding } from './page-verdict.js';

/** What the live checker does with a URL before any request for it. */
export type RobotsDecision = { fetch: true } | { fetch: false; status: string; findings: PageFinding[] };

const FETCH: RobotsDecision = { fetch: true };

/** The `statusCodes` key of URLs robots.txt kept the live checks from fetching. */
export const ROBOTS_STATUS = 'robots.txt';

/** The product token of a User-Agent header (`sitemapkit/0.1 (+…)` → `sitemapkit`). */
export function productToken(userAgent: string): string {
  return /^[A-Za-z_-]+/.exec(userAgent)?.[0] ?? 'sitemapkit';
}

export class LiveRobots {
  readonly #agent: RobotsGate;
  readonly #own: RobotsGate | undefined;
  readonly #agentName: string;
  readonly #ownName: string;

  constructor(cache: RobotsCache, agent: string, userAgent: string) {
    const gate = (token: string): RobotsGate =>
      new RobotsGate(cache, { enabled: true, agent: token, onRules: () => {}, onSettled: () => {} });
    this.#agentName = agent;
    this.#ownName = productToken(userAgent);
    this.#agent = gate(agent);
    this.#own = this.#ownName.toLowerCase() === agent.toLowerCase() ? undefined : gate(this.#ownName);
  }

  /**
   * Whether `url` may be fetched. `reported`: the offline robots.txt check has already reported
   * the URL as `robots-sitemap-disallowed` for the agent, so it is not repeated.
   */
  async decide(url: string, reported: boolean): Promise<RobotsDecision> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return FETCH; // the request fails and says why
    }
    if (origin === 'null') return FETCH;
    const verdict = await this.#agent.check(origin, url);
    if (!verdict.allowed) return this.#refused(verdict, url, this.#agentName, reported);
    const own = await this.#own?.check(origin, url);
    if (own !== undefined && !own.allowed) return this.#refused(own, url, this.#ownName, false);
    return FETCH;
  }

  #refused(
    verdict: Exclude<GateVerdict, { allowed: true }>,
    url: string,
    token: string,
    reported: boolean,
  ): RobotsDecision {
    if (verdict.address === true) {
      // Not a robots.txt rule: the host is at an address the policy refuses.
      return {
        fetch: false,
        status: 'failed',
        findings: [{ code: 'live-fetch-failed', message: verdict.reason }],
      };
    }
    const findings: PageFinding[] = [];
    if (token === this.#agentName) {
      if (!reported)
        findings.push({
          code: 'robots-sitemap-disallowed',
          message: `${url} is disallowed for ${token} by ${verdict.reason}; it was not fetched`,
        });
    } else {
      findings.push({
        code: 'live-robots-skipped',
        message: `not fetched: ${verdict.reason} for ${token}, the product token of the live checks' User-Agent (--ignore-robots checks a site you own)`,
      });
    }
    return { fetch: false, status: ROBOTS_STATUS, findings };
  }
}
