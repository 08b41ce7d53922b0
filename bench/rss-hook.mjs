// Preloaded into each contender: prints its own peak RSS (KiB) on exit, for bench/lib.mjs.
process.on('exit', () => {
  process.stderr.write(`SK_MAXRSS=${process.resourceUsage().maxRSS}\n`);
});
