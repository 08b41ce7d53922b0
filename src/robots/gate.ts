/**
 * The robots.txt gate of every part that fetches pages (the crawler, the validator's live checks):
 * a thin layer over `RobotsCache`, which alone decides how long an outcome lasts (24 h for a file,
 * a short retry for an unreachable one, the previous rules kept when a refresh fails). The crawl
 * loop must decide without awaiting, so `verdict` asks the cache for a fresh outcome (`peek`),
 * starts a fetch when there is none (`undefined`: wait), and hands every new outcome once to
 * `onRules` (Crawl-delay, warnings) before any URL of its origin is judged by it. Callers that may
 * await (the live checks) use `check`.
 */
import { HttpError } from '../http/errors.js';
import type { RobotsCache, RobotsFetchResult } from './fetch.js';

/**
 * `allowed: false` with `address`: the host is at an address the policy refuses (its robots.txt
 * could not even be asked for), which is not a robots.txt rule.
 */
export type GateVerdict = { allowed: true } | { allowed: false; reason: string; address?: true };

/** Why robots.txt was not asked for when the address policy refused its host, else undefined. */
export function addressRefusal(result: RobotsFetchResult): string | undefined {
  const cause = result.error?.cause;
  return cause instanceof HttpError && cause.reason === 'address-refused' ? cause.message : undefined;
}

const ALLOWED: GateVerdict = { allowed: true };

export interface RobotsGateOptions {
  /** Obey robots.txt at all (`false`: everything is allowed and nothing is fetched). */
  enabled: boolean;
  /** The product token rules are matched for. */
  agent: string;
  /** A new outcome for an origin (called once per outcome, before it is used). */
  onRules: (origin: string, result: RobotsFetchResult) => void;
  /** A fetch started by the gate ended (the loop can go on), or failed (an abort). */
  onSettled: (error?: unknown) => void;
}

export class RobotsGate {
  readonly #cache: RobotsCache;
  readonly #o: RobotsGateOptions;
  readonly #pending = new Set<string>();
  readonly #applied = new Map<string, RobotsFetchResult>();

  constructor(cache: RobotsCache, options: RobotsGateOptions) {
    this.#cache = cache;
    this.#o = options;
  }

  /** Fetches (or takes from the cache) the rules of `origin` now, and applies them. */
  async prime(origin: string): Promise<RobotsFetchResult> {
    const result = await this.#cache.get(`${origin}/`);
    this.#apply(origin, result);
    return result;
  }

  /** Whether `url` (of `origin`) may be fetched; undefined while its robots.txt is being fetched. */
  verdict(origin: string, url: string): GateVerdict | undefined {
    if (!this.#o.enabled) return ALLOWED;
    const r = this.#rules(origin);
    return r === undefined ? undefined : this.#judge(r, url);
  }

  /** Whether `url` (of `origin`) may be fetched, waiting for its robots.txt when needed. */
  async check(origin: string, url: string): Promise<GateVerdict> {
    if (!this.#o.enabled) return ALLOWED;
    return this.#judge(await this.prime(origin), url);
  }

  #judge(r: RobotsFetchResult, url: string): GateVerdict {
    if (r.status === 'unreachable') {
      const refused = addressRefusal(r);
      if (refused !== undefined) return { allowed: false, reason: refused, address: true };
    }
    const agent = this.#o.agent;
    if (r.robots.isAllowed(url, agent)) return ALLOWED;
    const why = r.robots.explain(url, agent);
    const where = why.line === null ? '' : ` line ${why.line}`;
    return { allowed: false, reason: `robots.txt${where}: ${why.reason}` };
  }

  #rules(origin: string): RobotsFetchResult | undefined {
    if (this.#pending.has(origin)) return undefined;
    const fresh = this.#cache.peek(`${origin}/`);
    if (fresh !== undefined) {
      this.#apply(origin, fresh);
      return fresh;
    }
    this.#pending.add(origin);
    this.#cache.get(`${origin}/`).then(
      (result) => {
        this.#pending.delete(origin);
        this.#apply(origin, result);
        this.#o.onSettled();
      },
      // Only an abort rejects: the origin stays pending while the crawl stops.
      (error: unknown) => this.#o.onSettled(error),
    );
    return undefined;
  }

  #apply(origin: string, result: RobotsFetchResult): void {
    if (this.#applied.get(origin) === result) return;
    this.#applied.set(origin, result);
    this.#o.onRules(origin, result);
  }
}
