// Preloaded into bench/parse-tree.mjs's CLI contenders beside bench/rss-hook.mjs (which prints
// the process's CPU and the main thread's, SK_CPU and SK_MAIN_CPU, in µs): prints SK_THREADS,
// each kind of thread's time from the scheduler (/proc/self/task/TID/schedstat: on a CPU, waiting for one), sampled every 50 ms: the main
// thread, the parse workers (each tells its thread id here as it starts: this hook is in their
// execArgv too) and the rest (V8's helpers, libuv's pool: CPU only). A thread's idle time is its
// life less both: time blocked, waiting for input or for another thread, which a loaded machine
// does not add to (its waits for a CPU are counted apart).
import { readdirSync, readFileSync } from 'node:fs';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';

const channel = new BroadcastChannel('sk-bench-threads');
channel.unref();

/** The thread id (Linux) of the calling thread. */
function ownTid() {
  return readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0];
}

if (!isMainThread) {
  try {
    channel.postMessage(ownTid());
  } catch {
    // Not Linux.
  }
} else {
  const workers = new Set();
  channel.onmessage = (e) => workers.add(String(e.data));
  /** tid → { cpu, wait, alive } in seconds, as last seen. */
  const threads = new Map();
  const sample = () => {
    try {
      const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
      for (const tid of readdirSync('/proc/self/task')) {
        try {
          const [cpu, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
          // Field 22 of stat, the thread's start in clock ticks (100 a second) since boot.
          const start = Number(
            readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[19],
          );
          threads.set(tid, { cpu: cpu / 1e9, wait: wait / 1e9, alive: uptime - start / 100 });
        } catch {
          // The thread ended between the listing and the read.
        }
      }
    } catch {
      // Not Linux.
    }
  };
  setInterval(sample, 50).unref();
  process.on('exit', () => {
    sample();
    const sum = (tids) => {
      const s = { cpu: 0, wait: 0, idle: 0 };
      for (const tid of tids) {
        const t = threads.get(tid);
        if (t === undefined) continue;
        s.cpu += t.cpu;
        s.wait += t.wait;
        s.idle += Math.max(0, t.alive - t.cpu - t.wait);
      }
      return s;
    };
    const main = String(process.pid);
    const rest = [...threads.keys()].filter((tid) => tid !== main && !workers.has(tid));
    const out = { main: sum([main]), workers: sum(workers), helpers: { cpu: sum(rest).cpu } };
    if (threads.size > 0) process.stderr.write(`SK_THREADS=${JSON.stringify(out)}\n`);
  });
}
