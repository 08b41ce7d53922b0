// Preloaded into bench/parse-tree.mjs's CLI contenders: prints the main thread's own CPU seconds
// (Linux /proc; user + system ticks) on exit, apart from the process's (every thread), which
// bench/rss-hook.mjs prints. The parse workers' share is the difference. A worker loads this hook
// too (its execArgv is the parent's) and prints nothing.
import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.on('exit', () => {
    try {
      const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      process.stderr.write(`SK_MAIN_CPU=${(Number(stat[11]) + Number(stat[12])) / 100}\n`);
    } catch {
      // Not Linux: the main thread's share is not printed.
    }
  });
}
