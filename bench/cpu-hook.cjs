// Preloaded (`node -r`) into each contender of bench/startup.mjs: prints its CPU time (user +
// system, µs) and peak RSS (KiB) on exit, as bench/rss-hook.mjs does. CommonJS, so that the hook
// itself loads nothing a bare `node -e ''` does not: rss-hook.mjs, an ES module given with
// --import, starts Node's ES module loader in every contender, bare node included, which hides
// what an entry point that is an ES module costs (about 5 ms of CPU).
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`SK_MAXRSS=${u.maxRSS}\nSK_CPU=${u.userCPUTime + u.systemCPUTime}\n`);
});
