// Preloaded into each contender: prints its own peak RSS (KiB) and CPU time (user + system, µs)
// on exit, for bench/lib.mjs.
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`SK_MAXRSS=${u.maxRSS}\nSK_CPU=${u.userCPUTime + u.systemCPUTime}\n`);
});
