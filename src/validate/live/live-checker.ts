/**
 * The live checks' fetching: a bounded queue (the parser waits when it is full), a global cap and
 * the HTTP layer's per-host scheduler, the run's client (User-Agent, headers, address policy), a
 * timeout per request, the HTTP layer's retry policy (Retry-After honoured by pausing the host),
 * HEAD first and GET only where the body matters, and a cap on page bytes. robots.txt is obeyed
 * before any request (live-robots.ts), as the crawler obeys it.
 */
import { SitemapkitError } from '../../core/errors.js';
import type { HttpClient, HttpResponse } from '../../http/client.js';
import { HttpError } from '../../http/errors.js';
import { decideRetry, type RetryPolicy } from '../../http/retry.js';
import { HostScheduler, hostKey } from '../../http/scheduler.js';
import type { ResolvedLiveOptions } from '../options.js';
import type { LiveRobots } from './live-robots.js';
import { isHtmlPage, judgePage, type PageFacts, type PageFinding } from './page-verdict.js';

/** One listed URL to check. */
export interface LiveJob {
  url: string;
  lastmod: string | undefined;
  sitemap: string;
  line: number | undefined;
  /** The offline robots.txt check already reported the URL as disallowed for the agent. */
  robotsReported?: boolean;
}

export interface LiveHttp {
  client: HttpClient;
  signal: AbortSignal | undefined;
  /** robots.txt, obeyed before any request for a URL; undefined with `ignoreRobots`. */
  robots: LiveRobots | undefined;
}

interface Task {
  job: LiveJob;
  attempt: number;
}

interface HostQueue {
  host: string;
  queue: Task[];
}

type Outcome =
  | { kind: 'done'; status: string; findings: PageFinding[] }
  | { kind: 'retry'; delayMs: number; status: string; findings: PageFinding[] };

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
/** Backoff before a retry when the server gives no Retry-After. */
const BACKOFF_MS = 1000;

/** Reads at most `max` bytes of a body as text, then lets the rest go. */
async function readHead(response: HttpResponse): Promise<string> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  for await (const chunk of response.body()) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

export class LiveChecker {
  readonly #o: ResolvedLiveOptions;
  readonly #http: LiveHttp;
  readonly #agent: string;
  readonly #onResult: (job: LiveJob, status: string, findings: PageFinding[]) => void;
  readonly #hosts = new Map<string, HostQueue>();
  readonly #scheduler: HostScheduler;
  readonly #retry: RetryPolicy;
  readonly #room: Array<() => void> = [];
  #idle: Array<() => void> = [];
  #active = 0;
  #queued = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failure: unknown;
  /** URLs accepted so far (the `limit` applies to them). */
  accepted = 0;
  /** Checks finished. */
  done = 0;

  constructor(
    options: ResolvedLiveOptions,
    http: LiveHttp,
    agent: string,
    onResult: (job: LiveJob, status: string, findings: PageFinding[]) => void,
  ) {
    this.#o = options;
    this.#http = http;
    this.#agent = agent;
    this.#onResult = onResult;
    this.#scheduler = new HostScheduler({ concurrency: options.perHost, delayMs: 0 });
    this.#retry = {
      retries: options.retries,
      baseMs: BACKOFF_MS,
      maxMs: BACKOFF_MS,
      maxRetryAfterMs: options.maxRetryAfterMs,
      // 429 and 503 say "later"; other statuses are the answer.
      statuses: (s) => s === 429 || s === 503,
    };
  }

  /** Checks queued or running. */
  get pending(): number {
    return this.#queued + this.#active;
  }

  /**
   * Queues a URL. Resolves at once while the queue has room; otherwise when a check finishes, so
   * that the caller (the parser's loop) never runs far ahead of the network.
   */
  async add(job: LiveJob): Promise<void> {
    if (this.accepted >= this.#o.limit) return;
    this.#rethrow();
    this.accepted++;
    const host = hostKey(job.url);
    let q = this.#hosts.get(host);
    if (q === undefined) {
      q = { host, queue: [] };
      this.#hosts.set(host, q);
    }
    q.queue.push({ job, attempt: 0 });
    this.#queued++;
    this.#pump();
    while (this.pending >= this.#o.concurrency * 4) {
      await new Promise<void>((resolve) => this.#room.push(resolve));
      this.#rethrow();
    }
  }

  /** Resolves when every queued check has finished. */
  async finish(): Promise<void> {
    while (this.pending > 0) {
      await new Promise<void>((resolve) => this.#idle.push(resolve));
      this.#rethrow();
    }
    this.#rethrow();
  }

  #rethrow(): void {
    if (this.#failure !== undefined) throw this.#failure;
    const signal = this.#http.signal;
    if (signal?.aborted === true) {
      throw new SitemapkitError('ERR_ABORTED', 'the live checks were aborted', { cause: signal.reason });
    }
  }

  #wake(): void {
    const room = this.#room.splice(0, this.#room.length);
    for (const r of room) r();
    if (this.pending === 0 || this.#failure !== undefined) {
      const idle = this.#idle;
      this.#idle = [];
      for (const r of idle) r();
    }
  }

  #pump(): void {
    if (this.#failure !== undefined || this.#http.signal?.aborted === true) return;
    const now = Date.now();
    let nextWake = Number.POSITIVE_INFINITY;
    let started = true;
    // Round-robin over hosts: one start per host per pass, so that one big host cannot starve others.
    while (started && this.#active < this.#o.concurrency) {
      started = false;
      for (const q of this.#hosts.values()) {
        if (this.#active >= this.#o.concurrency) break;
        if (q.queue.length === 0) continue;
        const at = this.#scheduler.readyAt(q.host, now);
        if (at > now) {
          // Infinity: the host is full, and a finishing request pumps again.
          if (at !== Number.POSITIVE_INFINITY) nextWake = Math.min(nextWake, at);
          continue;
        }
        const task = q.queue.shift()!;
        this.#queued--;
        this.#scheduler.start(q.host, now);
        this.#active++;
        started = true;
        void this.#run(task, q);
      }
    }
    if (nextWake !== Number.POSITIVE_INFINITY && this.#timer === undefined) {
      this.#timer = setTimeout(
        () => {
          this.#timer = undefined;
          this.#pump();
        },
        Math.max(1, nextWake - now),
      );
    }
  }

  async #run(task: Task, q: HostQueue): Promise<void> {
    try {
      const robots = await this.#http.robots?.decide(task.job.url, task.job.robotsReported === true);
      const outcome =
        robots === undefined || robots.fetch
          ? await this.#check(task.job, task.attempt + 1)
          : { kind: 'done' as const, status: robots.status, findings: robots.findings };
      if (outcome.kind === 'retry') {
        task.attempt++;
        this.#scheduler.pause(q.host, Date.now() + outcome.delayMs);
        q.queue.unshift(task);
        this.#queued++;
      } else {
        this.done++;
        this.#onResult(task.job, outcome.status, outcome.findings);
      }
    } catch (error) {
      this.#failure ??= error;
    } finally {
      this.#scheduler.finish(q.host);
      this.#active--;
      this.#pump();
      this.#wake();
    }
  }

  #request(url: string, method: 'HEAD' | 'GET'): Promise<HttpResponse> {
    return this.#http.client.request(url, {
      method,
      redirect: 'manual',
      headers: { accept: ACCEPT },
      timeoutMs: this.#o.timeoutMs,
      maxBytes: this.#o.maxPageBytes,
      overflow: 'truncate',
      signal: this.#http.signal,
    });
  }

  /** HEAD, then GET where needed; the retry policy decides on a 429/503 or a network failure. */
  async #check(job: LiveJob, attempt: number): Promise<Outcome> {
    let response: HttpResponse;
    try {
      response = await this.#request(job.url, this.#o.method === 'get' ? 'GET' : 'HEAD');
      if (this.#o.method === 'auto') {
        response.cancel();
        const s = response.status;
        const html = s >= 200 && s < 300 && isHtmlPage(response.headers.get('content-type') ?? undefined);
        // HTML pages need their body (robots meta, canonical); errors are confirmed with GET,
        // because some servers answer HEAD wrongly (405, 403, 404).
        if (html || s >= 400) response = await this.#request(job.url, 'GET');
      }
      const facts: PageFacts = { url: job.url, status: response.status, headers: response.headers.record() };
      if (response.statusText !== '') facts.statusText = response.statusText;
      if (response.status >= 200 && response.status < 300 && isHtmlPage(facts.headers['content-type'])) {
        facts.html = await readHead(response);
      } else {
        response.cancel();
      }
      const findings = judgePage(facts, job.lastmod, this.#agent);
      const status = String(response.status);
      const d = decideRetry(
        this.#retry,
        attempt,
        response.status,
        response.headers.get('retry-after'),
        Date.now(),
      );
      // A wait longer than allowed, or no attempts left: the answer stands as it is.
      if (d.kind === 'retry') return { kind: 'retry', delayMs: d.delayMs, status, findings };
      return { kind: 'done', status, findings };
    } catch (error) {
      if (this.#http.signal?.aborted === true || (error instanceof HttpError && error.reason === 'aborted')) {
        throw new SitemapkitError('ERR_ABORTED', 'the live checks were aborted', {
          where: job.url,
          cause: error,
        });
      }
      const why =
        error instanceof HttpError
          ? error.reason === 'timeout'
            ? `no answer within ${this.#o.timeoutMs} ms`
            : (error.detail ?? error.message)
          : String(error);
      const findings = [{ code: 'live-fetch-failed', message: `could not be fetched: ${why}` }];
      const d = decideRetry(this.#retry, attempt, undefined, undefined, Date.now());
      if (d.kind === 'retry') return { kind: 'retry', delayMs: d.delayMs, status: 'failed', findings };
      return { kind: 'done', status: 'failed', findings };
    }
  }
}
