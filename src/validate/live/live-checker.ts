/**
 * The live checks' fetching: a bounded queue (the parser waits when it is full), a global and a
 * per-host concurrency cap, one clear User-Agent, a timeout per request, Retry-After honoured by
 * pausing the host, HEAD first and GET only where the body matters, and a cap on page bytes.
 */
import { SitemapkitError } from '../../core/errors.js';
import type { FetchLike } from '../../robots/fetch.js';
import { retryAfterMs } from '../../submit/retry-after.js';
import type { ResolvedLiveOptions } from '../options.js';
import { isHtmlPage, judgePage, type PageFacts, type PageFinding } from './page-verdict.js';

/** One listed URL to check. */
export interface LiveJob {
  url: string;
  lastmod: string | undefined;
  sitemap: string;
  line: number | undefined;
}

export interface LiveHttp {
  fetch: FetchLike;
  userAgent: string;
  headers: Readonly<Record<string, string>>;
  signal: AbortSignal | undefined;
}

interface Task {
  job: LiveJob;
  attempt: number;
}

interface HostQueue {
  active: number;
  queue: Task[];
  pausedUntil: number;
}

type Outcome =
  | { kind: 'done'; status: string; findings: PageFinding[] }
  | { kind: 'retry'; delayMs: number; why: string; status: string; findings: PageFinding[] };

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
/** Backoff before a retry when the server gives no Retry-After. */
const BACKOFF_MS = 1000;

function hostOf(url: string): string {
  const m = /^https?:\/\/([^/?#]+)/i.exec(url);
  return m === null ? '' : m[1]!.toLowerCase();
}

function headerRecord(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** Reads at most `max` bytes of a body as text, then lets the rest go. */
async function readHead(response: Response, max: number): Promise<string> {
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = max - total;
      const chunk = value.length > room ? value.subarray(0, room) : value;
      total += chunk.length;
      text += decoder.decode(chunk, { stream: true });
      if (total >= max) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

export class LiveChecker {
  readonly #o: ResolvedLiveOptions;
  readonly #http: LiveHttp;
  readonly #agent: string;
  readonly #onResult: (job: LiveJob, status: string, findings: PageFinding[]) => void;
  readonly #hosts = new Map<string, HostQueue>();
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
    const host = hostOf(job.url);
    let q = this.#hosts.get(host);
    if (q === undefined) {
      q = { active: 0, queue: [], pausedUntil: 0 };
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
        if (q.queue.length === 0 || q.active >= this.#o.perHost) continue;
        if (q.pausedUntil > now) {
          nextWake = Math.min(nextWake, q.pausedUntil);
          continue;
        }
        const task = q.queue.shift()!;
        this.#queued--;
        q.active++;
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
      const outcome = await this.#check(task.job);
      if (outcome.kind === 'retry' && task.attempt < this.#o.retries) {
        task.attempt++;
        q.pausedUntil = Math.max(q.pausedUntil, Date.now() + outcome.delayMs);
        q.queue.unshift(task);
        this.#queued++;
      } else {
        this.done++;
        this.#onResult(task.job, outcome.status, outcome.findings);
      }
    } catch (error) {
      this.#failure ??= error;
    } finally {
      q.active--;
      this.#active--;
      this.#pump();
      this.#wake();
    }
  }

  async #request(url: string, method: 'HEAD' | 'GET'): Promise<Response> {
    const timeout = AbortSignal.timeout(this.#o.timeoutMs);
    const user = this.#http.signal;
    return this.#http.fetch(url, {
      method,
      redirect: 'manual',
      headers: { accept: ACCEPT, ...this.#http.headers, 'user-agent': this.#http.userAgent },
      signal: user === undefined ? timeout : AbortSignal.any([timeout, user]),
    });
  }

  /** HEAD, then GET where needed; a 429/503 or a network failure asks for a retry. */
  async #check(job: LiveJob): Promise<Outcome> {
    try {
      let response = await this.#request(job.url, this.#o.method === 'get' ? 'GET' : 'HEAD');
      if (this.#o.method === 'auto') {
        await response.body?.cancel().catch(() => undefined);
        const s = response.status;
        const html = s >= 200 && s < 300 && isHtmlPage(response.headers.get('content-type') ?? undefined);
        // HTML pages need their body (robots meta, canonical); errors are confirmed with GET,
        // because some servers answer HEAD wrongly (405, 403, 404).
        if (html || s >= 400) response = await this.#request(job.url, 'GET');
      }
      const retry = this.#retryOf(response);
      const facts: PageFacts = {
        url: job.url,
        status: response.status,
        headers: headerRecord(response.headers),
      };
      if (response.statusText !== '') facts.statusText = response.statusText;
      if (
        response.status >= 200 &&
        response.status < 300 &&
        response.body !== null &&
        isHtmlPage(facts.headers['content-type'])
      ) {
        facts.html = await readHead(response, this.#o.maxPageBytes);
      } else {
        await response.body?.cancel().catch(() => undefined);
      }
      const findings = judgePage(facts, job.lastmod, this.#agent);
      const status = String(response.status);
      if (retry !== undefined)
        return { kind: 'retry', delayMs: retry, why: `HTTP ${status}`, status, findings };
      return { kind: 'done', status, findings };
    } catch (error) {
      if (this.#http.signal?.aborted === true) {
        throw new SitemapkitError('ERR_ABORTED', 'the live checks were aborted', {
          where: job.url,
          cause: error,
        });
      }
      const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
      const why =
        e.name === 'TimeoutError'
          ? `no answer within ${this.#o.timeoutMs} ms`
          : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(error));
      const findings = [{ code: 'live-fetch-failed', message: `could not be fetched: ${why}` }];
      return { kind: 'retry', delayMs: BACKOFF_MS, why, status: 'failed', findings };
    }
  }

  /** The wait before retrying a 429 or 503, or undefined when the answer is final. */
  #retryOf(response: Response): number | undefined {
    if (response.status !== 429 && response.status !== 503) return undefined;
    const after = retryAfterMs(response.headers.get('retry-after'), Date.now());
    if (after === undefined) return BACKOFF_MS;
    // A wait longer than allowed ends the retries: the answer stands as it is.
    return after > this.#o.maxRetryAfterMs ? undefined : after;
  }
}
