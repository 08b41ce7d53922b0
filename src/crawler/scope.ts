/**
 * Which URLs the crawler may fetch: the hosts, a path prefix, include/exclude patterns, the depth
 * limit, and the crawler-trap guards (repeating path segments, endless calendars, a cap per URL
 * pattern). Pure: the per-pattern counts are kept by the caller (the state database), so a resumed
 * crawl counts on where it stopped.
 */
import picomatch from 'picomatch';

/** Why a URL is not fetched, as stored in the state and shown in the report. */
export type OutOfScope =
  | { verdict: 'external'; reason: string }
  | { verdict: 'excluded'; reason: string }
  | { verdict: 'trap'; reason: string };

export interface ScopeOptions {
  /** Origins (`scheme://host[:port]`) of the start URLs. */
  origins: readonly string[];
  /** More hosts (`host` or `host:port`) to crawl, under any scheme. */
  hosts: readonly string[];
  /** Also crawl subdomains of the start hosts. */
  subdomains: boolean;
  /** Only paths starting with this (`/docs/`). */
  pathPrefix: string;
  /** Globs over `path?query`; when any is given a URL must match one. */
  include: readonly string[];
  /** Globs over `path?query`; a match is never fetched. */
  exclude: readonly string[];
  /** Repeated path segments and calendar guards. */
  trapGuards: boolean;
  /** The current year (calendar pages far beyond it are traps). */
  year: number;
}

export class Scope {
  readonly #origins: ReadonlySet<string>;
  readonly #hosts: ReadonlySet<string>;
  readonly #startHosts: readonly string[];
  readonly #o: ScopeOptions;
  readonly #include: Array<(s: string) => boolean>;
  readonly #exclude: Array<(s: string) => boolean>;

  constructor(o: ScopeOptions) {
    this.#o = o;
    this.#origins = new Set(o.origins);
    this.#hosts = new Set(o.hosts.map((h) => h.toLowerCase()));
    this.#startHosts = o.origins.map((x) => new URL(x).hostname);
    this.#include = o.include.map((g) => picomatch(g, { dot: true }));
    this.#exclude = o.exclude.map((g) => picomatch(g, { dot: true }));
  }

  /** Whether the URL is on a crawled host (start origins, extra hosts, subdomains). */
  onSite(u: URL): boolean {
    if (this.#origins.has(`${u.protocol}//${u.host}`)) return true;
    if (this.#hosts.has(u.host) || this.#hosts.has(u.hostname)) return true;
    if (this.#o.subdomains) {
      return this.#startHosts.some((h) => u.hostname.endsWith(`.${h}`));
    }
    return false;
  }

  /**
   * Undefined when the (normalised) URL may be fetched; otherwise why not. `start` URLs skip the
   * include/exclude patterns: they are fetched so that their links are found.
   */
  check(url: string, start = false): OutOfScope | undefined {
    const u = new URL(url);
    if (!this.onSite(u)) return { verdict: 'external', reason: `${u.host} is not a crawled host` };
    if (!u.pathname.startsWith(this.#o.pathPrefix)) {
      return { verdict: 'external', reason: `outside the path prefix ${this.#o.pathPrefix}` };
    }
    if (!start) {
      const target = u.pathname + u.search;
      const ex = this.#o.exclude.findIndex((_, i) => this.#exclude[i]!(target));
      if (ex !== -1) return { verdict: 'excluded', reason: `matches --exclude ${this.#o.exclude[ex]}` };
      if (this.#include.length > 0 && !this.#include.some((m) => m(target))) {
        return { verdict: 'excluded', reason: 'matches no --include pattern' };
      }
    }
    if (this.#o.trapGuards) {
      const trap = trapReason(u, this.#o.year);
      if (trap !== undefined) return { verdict: 'trap', reason: trap };
    }
    return undefined;
  }
}

/** Path segments beyond this are a trap (relative links that keep adding a folder). */
export const MAX_SEGMENTS = 30;
/** A segment repeated this many times is a trap (`/a/b/a/b/a/b/`). */
export const MAX_REPEATS = 3;

const CALENDAR = /(?:^|[/=_-])([12]\d{3})[-/](\d{2})(?=$|[-/&?._])/g;

/** Why a URL looks like a crawler trap, or undefined. */
export function trapReason(u: URL, year: number): string | undefined {
  const segments = u.pathname.split('/').filter((s) => s !== '');
  if (segments.length > MAX_SEGMENTS) return `${segments.length} path segments (more than ${MAX_SEGMENTS})`;
  if (segments.length >= MAX_REPEATS) {
    const counts = new Map<string, number>();
    for (const s of segments) {
      const n = (counts.get(s) ?? 0) + 1;
      if (n >= MAX_REPEATS) return `the path segment "${s}" repeats ${n} times`;
      counts.set(s, n);
    }
  }
  let decoded = u.pathname + u.search;
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // Malformed escapes: look at the raw text.
  }
  for (const m of decoded.matchAll(CALENDAR)) {
    const y = Number(m[1]);
    const month = Number(m[2]);
    if (month < 1 || month > 12) continue;
    if (y < 1900 || y > year + 3)
      return `a calendar page for ${m[1]}-${m[2]} (years 1900 to ${year + 3} are crawled)`;
  }
  return undefined;
}

/**
 * The pattern a URL with a query counts against (`--max-per-pattern`): its origin and path plus
 * the sorted parameter names, values left out. Pagination (`?page=N`) and facet combinations
 * (`?color=…&size=…`) of one path share a pattern; URLs without a query have none.
 */
export function urlPattern(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q === -1) return undefined;
  const names = url
    .slice(q + 1)
    .split('&')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq === -1 ? p : p.slice(0, eq);
    })
    .sort();
  return `${url.slice(0, q)}?${names.join('&')}`;
}
