/**
 * Politeness as a pure policy: per host, at most `concurrency` requests at once and at least
 * `delayMs` between the starts of two requests (from a request rate, or robots.txt `Crawl-delay`,
 * the larger wins), and a pause after `Retry-After`. Time is passed in, never read, so the rules
 * are tested with a fake clock; a caller asks `readyAt` and waits until then.
 */

export interface HostLimits {
  /** Requests in flight at once on one host. */
  concurrency: number;
  /** Milliseconds between the starts of two requests to one host (0: none). */
  delayMs: number;
}

interface HostState {
  limits: HostLimits;
  inFlight: number;
  lastStart: number;
  pausedUntil: number;
}

/** The gap between two starts for `rps` requests per second (0 or less: no limit). */
export function delayForRate(rps: number): number {
  return rps > 0 && Number.isFinite(rps) ? Math.ceil(1000 / rps) : 0;
}

/** The host key of a URL: `host[:port]`, lower case ('' when it has none). */
export function hostKey(url: string): string {
  const m = /^https?:\/\/(?:[^@/?#]*@)?([^/?#]+)/i.exec(url);
  return m === null ? '' : m[1]!.toLowerCase();
}

export class HostScheduler {
  readonly #defaults: HostLimits;
  readonly #hosts = new Map<string, HostState>();

  constructor(defaults: HostLimits) {
    this.#defaults = { ...defaults };
  }

  #host(host: string): HostState {
    let h = this.#hosts.get(host);
    if (h === undefined) {
      h = { limits: { ...this.#defaults }, inFlight: 0, lastStart: Number.NEGATIVE_INFINITY, pausedUntil: 0 };
      this.#hosts.set(host, h);
    }
    return h;
  }

  /**
   * Applies a robots.txt `Crawl-delay` (milliseconds): the gap becomes the larger of it and the
   * configured one, and the host gets one request at a time (a delay means "one after another").
   */
  setCrawlDelay(host: string, ms: number): void {
    const h = this.#host(host);
    if (ms <= 0) return;
    h.limits = { concurrency: 1, delayMs: Math.max(h.limits.delayMs, ms) };
  }

  /** The limits in force for a host. */
  limits(host: string): HostLimits {
    return { ...this.#host(host).limits };
  }

  /** No request to the host starts before `until` (ms); a later pause wins over an earlier one. */
  pause(host: string, until: number): void {
    const h = this.#host(host);
    h.pausedUntil = Math.max(h.pausedUntil, until);
  }

  /**
   * When the next request to the host may start: `now` or later, or `Infinity` while it already
   * has `concurrency` requests in flight (a finishing request frees the slot).
   */
  readyAt(host: string, now: number): number {
    const h = this.#host(host);
    if (h.inFlight >= h.limits.concurrency) return Number.POSITIVE_INFINITY;
    return Math.max(now, h.pausedUntil, h.lastStart + h.limits.delayMs);
  }

  /** Records a request start; call only when `readyAt(host, now) <= now`. */
  start(host: string, now: number): void {
    const h = this.#host(host);
    if (this.readyAt(host, now) > now) throw new Error(`host scheduler: ${host} is not ready at ${now}`);
    h.inFlight++;
    h.lastStart = now;
  }

  /**
   * Books a start for a request that rides on one already started (a rendered page's own script and
   * API requests): it keeps the gap and any pause, but takes no concurrency place, since the page
   * that makes it holds one. Returns when it may be sent; the next request keeps its gap from then.
   */
  book(host: string, now: number): number {
    const h = this.#host(host);
    const at = Math.max(now, h.pausedUntil, h.lastStart + h.limits.delayMs);
    h.lastStart = at;
    return at;
  }

  /** Records that a request to the host finished (any outcome). */
  finish(host: string): void {
    const h = this.#host(host);
    if (h.inFlight > 0) h.inFlight--;
  }

  /** Requests in flight on the host. */
  inFlight(host: string): number {
    return this.#hosts.get(host)?.inFlight ?? 0;
  }
}
