// Preloaded into each contender: prints its own peak RSS (KiB) and CPU time (user + system, µs)
// on exit, for bench/lib.mjs; on Linux also the main thread's own CPU time (µs), apart from its
// worker threads, zlib's thread pool and V8's helpers; and the peak RSS again with the pid, for a
// bench whose processes share one stderr (bench/crawl-postgres.mjs: the workers of one crawl).
// A program that marks `sitemapkit:output` (performance.mark: the crawl does when its last page is
// done and its output starts) also gets its peak RSS in two phases: before the mark (the kernel's
// high-water mark then, exact) and after it (the RSS sampled every 50 ms from the mark on, or the
// final high-water mark when it grew past the first phase's, which is then exact too).
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

function mainThreadCpu() {
  try {
    // Fields 14 and 15 of /proc/thread-self/stat: user and system time in clock ticks (100 a second).
    const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
    return `SK_MAIN_CPU=${(Number(f[11]) + Number(f[12])) * 10_000}\n`;
  } catch {
    return '';
  }
}

// A worker thread inherits the process's --import: only the main thread reports (once, at exit).
if (isMainThread) hook();

function hook() {
  /** RSS in KiB at the mark (the high-water mark so far) and the largest sampled after it. */
  let phases;
  const observer = new PerformanceObserver((list) => {
    if (phases !== undefined || !list.getEntries().some((e) => e.name === 'sitemapkit:output')) return;
    phases = { before: process.resourceUsage().maxRSS, after: process.memoryUsage.rss() / 1024 };
    setInterval(() => {
      phases.after = Math.max(phases.after, process.memoryUsage.rss() / 1024);
    }, 50).unref();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['mark'] });

  process.on('exit', () => {
    const u = process.resourceUsage();
    let split = '';
    if (phases !== undefined) {
      const after = u.maxRSS > phases.before ? u.maxRSS : phases.after;
      split = `SK_RSS_PHASES=${phases.before},${Math.round(after)}\n`;
    }
    process.stderr.write(
      `SK_MAXRSS=${u.maxRSS}\nSK_PID_MAXRSS=${process.pid}:${u.maxRSS}\nSK_CPU=${u.userCPUTime + u.systemCPUTime}\n${mainThreadCpu()}${split}`,
    );
  });
}
