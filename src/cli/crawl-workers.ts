/**
 * `crawl --workers N`: N local worker processes (each `sitemapkit crawl-worker` on the shared
 * crawl), started and supervised here. Their progress arrives over an IPC channel and is merged
 * into one line; their findings are passed on line by line, marked with the worker; Ctrl-C is
 * passed on once (each worker returns its leases and exits 130); the exit code is the worst of
 * theirs. The worker that wrote the outputs prints the summary.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SharedQueueSize } from '../crawler/frontier-postgres-queue.js';
import type { CrawlProgress } from '../crawler/options.js';
import type { CliContext } from './context.js';
import { progressText } from './crawl-lines.js';
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from './exit.js';
import { Progress, RateWindow } from './progress.js';

/** Set in a worker's environment by {@link superviseWorkers}: progress goes over IPC, not to stderr. */
export const WORKER_IPC_ENV = 'SITEMAPKIT_CRAWL_IPC';

/** A message from a worker to its supervisor. */
export type WorkerMessage =
  | { kind: 'progress'; progress: CrawlProgress }
  | { kind: 'finished'; wroteOutputs: boolean };

/** The CLI's own entry point, which a worker process runs. */
const BIN = fileURLToPath(new URL('./bin.js', import.meta.url));
/** Seconds between merged progress lines when stderr is not a terminal. */
const LOG_EVERY_MS = 5000;

export interface SuperviseOptions {
  /** How many workers. */
  workers: number;
  /** `crawl-worker` arguments, the same for each (state, crawl id, output flags). */
  args: string[];
  /** No progress and no findings (the workers get --quiet too). */
  quiet: boolean;
  /** Machine output: the workers print JSON, nothing else goes to stdout. */
  json: boolean;
  /**
   * The URLs queued or claimed in the whole crawl, read from the database: each worker knows only
   * what it found and finished itself. Asked every {@link QUEUE_POLL_MS} while progress is shown.
   */
  queued: () => Promise<SharedQueueSize>;
}

const QUEUE_POLL_MS = 3000;

interface Worker {
  n: number;
  child: ChildProcess;
  progress: CrawlProgress | undefined;
  stdout: string;
  wroteOutputs: boolean;
  code: number;
}

/** Runs the workers to their end and returns the worst exit code of theirs. */
export async function superviseWorkers(options: SuperviseOptions, ctx: CliContext): Promise<number> {
  const stderr = ctx.stderr as NodeJS.WriteStream;
  const tty = stderr.isTTY === true;
  const progress = new Progress('crawl:', { stream: stderr, enabled: tty && !options.quiet });
  const rates = new RateWindow();
  const started = Date.now();
  let lastLog = started;
  const workers: Worker[] = [];
  const shown = !options.quiet && (tty || !options.json);
  let queued: SharedQueueSize | undefined;
  let polling = false;
  const poll = setInterval(() => {
    if (polling) return;
    polling = true;
    options
      .queued()
      .then((n) => {
        queued = n;
      })
      // The progress line is no reason to fail a crawl: the workers report the database's trouble.
      .catch(() => undefined)
      .finally(() => {
        polling = false;
      });
  }, QUEUE_POLL_MS);
  if (!shown) clearInterval(poll);
  const show = (): void => {
    const seen = workers.filter((w) => w.progress !== undefined).map((w) => w.progress!);
    if (seen.length === 0) return;
    const sum = (k: keyof CrawlProgress): number => seen.reduce((a, p) => a + p[k], 0);
    // Each worker counts what it finished; the queue is the whole crawl's, from the database.
    const merged: CrawlProgress = {
      done: sum('done'),
      queued: queued?.size ?? sum('queued'),
      requests: sum('requests'),
      listed: sum('listed'),
      errors: sum('errors'),
      inFlight: sum('inFlight'),
      elapsedMs: Date.now() - started,
    };
    rates.add({ at: merged.elapsedMs, done: merged.done });
    const alive = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).length;
    if (tty)
      progress.show(
        `${alive} workers · ${progressText(merged, rates.estimate(merged.queued), 'tty', queued?.estimated)}`,
      );
    else if (!options.quiet && !options.json && Date.now() - lastLog >= LOG_EVERY_MS) {
      lastLog = Date.now();
      ctx.stderr.write(
        `${progressText(merged, rates.estimate(merged.queued), 'log', queued?.estimated)} workers=${alive}\n`,
      );
    }
  };
  const ended: Array<Promise<void>> = [];
  for (let n = 1; n <= options.workers; n++) {
    // Its own process group: a terminal's Ctrl-C reaches this process alone, which passes it on
    // once (a worker interrupted twice would exit before returning its leases).
    const child = spawn(process.execPath, [BIN, 'crawl-worker', ...options.args], {
      detached: true,
      env: { ...process.env, [WORKER_IPC_ENV]: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const w: Worker = { n, child, progress: undefined, stdout: '', wroteOutputs: false, code: EXIT_USAGE };
    workers.push(w);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      w.stdout += d;
    });
    passLines(child.stderr!, (line) => {
      progress.stop();
      ctx.stderr.write(`worker ${n}: ${line}\n`);
    });
    child.on('message', (m: WorkerMessage) => {
      if (m.kind === 'progress') {
        w.progress = m.progress;
        show();
      } else w.wroteOutputs = m.wroteOutputs;
    });
    ended.push(
      new Promise<void>((resolve) => {
        child.on('error', (e) => {
          progress.stop();
          ctx.stderr.write(`sitemapkit: worker ${n} could not start: ${e.message}\n`);
          resolve();
        });
        child.on('close', (code, signal) => {
          w.code = code ?? (signal === 'SIGINT' ? EXIT_INTERRUPTED : EXIT_USAGE);
          if (code === null && signal !== 'SIGINT') {
            progress.stop();
            ctx.stderr.write(
              `sitemapkit: worker ${n} was ended by ${signal}; its pages go back to the frontier when their leases expire\n`,
            );
          }
          resolve();
        });
      }),
    );
  }
  const interrupt = (): void => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGINT');
  };
  ctx.signal.addEventListener('abort', interrupt, { once: true });
  try {
    await Promise.all(ended);
  } finally {
    clearInterval(poll);
    ctx.signal.removeEventListener('abort', interrupt);
    progress.stop();
  }
  // The summary is the finishing worker's; without one here (another machine's worker finished,
  // or none did), the first worker's words.
  const speaker = workers.find((w) => w.wroteOutputs) ?? workers[0];
  if (speaker !== undefined) ctx.stdout.write(speaker.stdout);
  return worst(workers.map((w) => w.code));
}

/** The worst of the workers' exit codes: could not run, then interrupted, then findings. */
export function worst(codes: readonly number[]): number {
  const rank = (c: number): number =>
    c === EXIT_OK ? 0 : c === EXIT_FINDINGS ? 1 : c === EXIT_INTERRUPTED ? 2 : 3;
  return codes.reduce((a, c) => (rank(c) > rank(a) ? c : a), EXIT_OK);
}

/** Calls `line` for each whole line of `stream` (and a last unterminated one). */
function passLines(stream: NodeJS.ReadableStream, line: (text: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (d: string) => {
    const parts = (rest + d).split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) line(p);
  });
  stream.on('end', () => {
    if (rest !== '') line(rest);
  });
}
