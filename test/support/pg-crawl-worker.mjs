/**
 * One worker of a crawl shared through PostgreSQL, for the tests of issue 17: runs the library's
 * `crawl()` (from dist/, as the CLI tests do) with the options given as JSON in argv[2], and prints
 * one line per event on standard output: `step NAME URLS` at each fault-injection point (the URLs
 * claimed, being fetched, in the batch, or recorded by it, as JSON; after `step pg:slot-due` a line
 * `due MS ORIGIN`, the realtime clock when the host's send slot was found due), `page URL` for
 * each finished URL, `diag CODE MESSAGE` for each diagnostic, and at the end `result JSON` (or `error CODE MESSAGE`). With
 * `PAUSE_AT=STEP:N` in its environment it stops at the Nth time it reaches STEP (`pg:claimed`,
 * `pg:mid-fetch`, `pg:before-commit`, `pg:after-commit`): it prints `paused STEP:N` and blocks
 * its only thread, so nothing more of the crawl runs (no other fetch, no commit), until the test
 * kills it with SIGKILL. The crash window is thus hit on purpose, never by timing.
 * SIGINT aborts the crawl (Ctrl-C).
 */
import { crawl } from '../../dist/crawler/index.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const pauseAt = process.env.PAUSE_AT;
const seen = new Map();
const out = (line) => process.stdout.write(`${line}\n`);
const controller = new AbortController();
process.on('SIGINT', () => controller.abort(new Error('SIGINT')));

try {
  const result = await crawl({
    ...options,
    signal: controller.signal,
    onStep: (step, urls) => {
      const n = (seen.get(step) ?? 0) + 1;
      seen.set(step, n);
      // Pipes are written synchronously on Linux: a line printed here is read even after SIGKILL.
      out(`step ${step} ${JSON.stringify(urls)}`);
      // When a host's slot was found due: the moment the worker let its request go (the realtime
      // clock, as the database's slots are), for the politeness test.
      if (step === 'pg:slot-due') out(`due ${performance.timeOrigin + performance.now()} ${urls[0]}`);
      if (pauseAt === `${step}:${n}`) {
        out(`paused ${pauseAt}`);
        // Blocks the event loop itself (a pending promise would let the other fetches and commits
        // go on): the worker is frozen exactly here until the test kills it.
        const cell = new Int32Array(new SharedArrayBuffer(4));
        for (;;) Atomics.wait(cell, 0, 0);
      }
    },
    onPage: (e) => out(`page ${e.url}`),
    onDiagnostic: (d) => out(`diag ${d.code} ${d.message}`),
  });
  out(`result ${JSON.stringify({ complete: result.complete, worker: result.worker, stats: result.stats })}`);
} catch (e) {
  out(`error ${e.code ?? 'UNKNOWN'} ${e.message}`);
  process.exitCode = e.code === 'ERR_ABORTED' ? 130 : 2;
}
