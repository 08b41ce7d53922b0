/**
 * One worker of a crawl shared through PostgreSQL, for the tests of issue 17: runs the library's
 * `crawl()` (from dist/, as the CLI tests do) with the options given as JSON in argv[2], and prints
 * one line per event on standard output: `step NAME URLS` at each fault-injection point (the URLs
 * claimed, being fetched, in the batch, or recorded by it, as JSON), `page URL` for
 * each finished URL, and at the end `result JSON` (or `error CODE MESSAGE`). With
 * `KILL_AT=STEP:N` in its environment it kills itself with SIGKILL at the Nth time it reaches STEP
 * (`pg:claimed`, `pg:mid-fetch`, `pg:before-commit`, `pg:after-commit`), so a crash window is
 * hit on purpose, never by timing. SIGINT aborts the crawl (Ctrl-C).
 */
import { crawl } from '../../dist/crawler/index.js';

const options = JSON.parse(process.argv[2] ?? '{}');
const killAt = process.env.KILL_AT;
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
      if (killAt === `${step}:${n}`) process.kill(process.pid, 'SIGKILL');
    },
    onPage: (e) => out(`page ${e.url}`),
  });
  out(`result ${JSON.stringify({ complete: result.complete, worker: result.worker, stats: result.stats })}`);
} catch (e) {
  out(`error ${e.code ?? 'UNKNOWN'} ${e.message}`);
  process.exitCode = e.code === 'ERR_ABORTED' ? 130 : 2;
}
