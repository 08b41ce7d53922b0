// Preloaded into each contender: prints its own peak RSS (KiB) and CPU time (user + system, µs)
// on exit, for bench/lib.mjs; on Linux also the main thread's own CPU time (µs), apart from its
// worker threads, zlib's thread pool and V8's helpers; and the peak RSS again with the pid, for a
// bench whose processes share one stderr (bench/crawl-postgres.mjs: the workers of one crawl).
import { readFileSync } from 'node:fs';

function mainThreadCpu() {
  try {
    // Fields 14 and 15 of /proc/thread-self/stat: user and system time in clock ticks (100 a second).
    const f = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1].split(' ');
    return `SK_MAIN_CPU=${(Number(f[11]) + Number(f[12])) * 10_000}\n`;
  } catch {
    return '';
  }
}

process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(
    `SK_MAXRSS=${u.maxRSS}\nSK_PID_MAXRSS=${process.pid}:${u.maxRSS}\nSK_CPU=${u.userCPUTime + u.systemCPUTime}\n${mainThreadCpu()}`,
  );
});
