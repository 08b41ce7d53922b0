// The driver of the serving benches (bench/handler.mjs, bench/handler-store.mjs): each server in
// its own process (with the peak-RSS hook), one lean undici client, gzip accepted, no conditional
// headers; cold (every request generates) and warm (cached) runs, the server's CPU per request
// read from /proc, medians of the runs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { fmt, table } from '../lib.mjs';

const WARM_SECONDS = 3;
const COLD_REQUESTS = 12;
export const CONCURRENCY = 4;
// Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux).
const TICKS = 100;

async function startServer({ script, arg, env = {} }, cold) {
  const child = spawn(
    process.execPath,
    ['--import', new URL('../rss-hook.mjs', import.meta.url).href, script, arg],
    { env: { ...process.env, ...env, COLD: cold ? '1' : '0' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const [line] = await once(child.stdout, 'data');
  const port = Number(String(line).trim());
  return {
    origin: `http://127.0.0.1:${port}`,
    /** CPU seconds the server has used (user + system), from /proc: what a request costs the server alone. */
    cpu() {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / TICKS;
    },
    async stop() {
      child.stdin.end();
      await once(child, 'close');
      const m = /SK_MAXRSS=(\d+)/.exec(stderr);
      return m ? Number(m[1]) / 1024 : Number.NaN;
    },
  };
}

// undici's dispatcher with a handler that only counts the body (keeps it when asked): the client
// costs as little as it can, so that the figures are the servers'.
function fetchOnce(pool, keep = false) {
  return new Promise((resolve, reject) => {
    let status = 0;
    let encoding = '';
    const chunks = [];
    pool.dispatch(
      { path: '/sitemap.xml', method: 'GET', headers: { 'accept-encoding': 'gzip' } },
      {
        onConnect() {},
        onHeaders(code, raw) {
          status = code;
          for (let i = 0; i + 1 < raw.length; i += 2)
            if (String(raw[i]).toLowerCase() === 'content-encoding') encoding = String(raw[i + 1]);
          return true;
        },
        onData(chunk) {
          if (keep) chunks.push(chunk);
          return true;
        },
        onComplete() {
          if (status !== 200 || encoding !== 'gzip')
            reject(new Error(`unexpected answer ${status} ${encoding}`));
          else resolve(Buffer.concat(chunks));
        },
        onError: reject,
      },
    );
  });
}

async function load(pool, server, { seconds, requests }) {
  let done = 0;
  const cpu0 = server.cpu();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const worker = async () => {
    while (requests !== undefined ? done < requests : performance.now() < until) {
      done++;
      await fetchOnce(pool);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { rps: done / ((performance.now() - t0) / 1000), cpuMs: ((server.cpu() - cpu0) * 1000) / done };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Runs every server cold and warm, `runs` times; returns rps, CPU ms and RSS per `who|mode`. */
export async function measure(servers, { urls: URLS, runs: RUNS }) {
  const results = {};
  for (let run = 0; run < RUNS; run++) {
    for (const [who, spec] of Object.entries(servers)) {
      for (const mode of ['cold', 'warm']) {
        const server = await startServer(spec, mode === 'cold');
        const pool = new Pool(server.origin, { connections: CONCURRENCY });
        const first = await fetchOnce(pool, true);
        const urls = gunzipSync(first).toString().match(/<url>/g)?.length;
        if (urls !== URLS) throw new Error(`${who} served ${urls} URLs, not ${URLS}`);
        const { rps, cpuMs } =
          mode === 'warm'
            ? await load(pool, server, { seconds: WARM_SECONDS })
            : await load(pool, server, { requests: COLD_REQUESTS });
        await pool.close();
        const rss = await server.stop();
        results[`${who}|${mode}`] ??= { rps: [], cpu: [], rss: [], bytes: first.length };
        const r = results[`${who}|${mode}`];
        r.rps.push(rps);
        r.cpu.push(cpuMs);
        r.rss.push(rss);
      }
    }
  }
  return results;
}

/** Prints the results as one table, each row's ratios against the server `ours` (its short name `label`). */
export function printResults(results, servers, ours, label) {
  const rows = [];
  for (const mode of ['cold', 'warm']) {
    const rps = median(results[`${ours}|${mode}`].rps);
    const cpu = median(results[`${ours}|${mode}`].cpu);
    for (const who of Object.keys(servers)) {
      const r = results[`${who}|${mode}`];
      rows.push({
        mode,
        server: who,
        'req/s': median(r.rps).toFixed(1),
        [`${label} ×`]: (rps / median(r.rps)).toFixed(2),
        'server CPU ms/req': median(r.cpu).toFixed(3),
        [`CPU ÷ ${label}`]: (median(r.cpu) / cpu).toFixed(2),
        'gzip bytes': fmt.n(r.bytes),
        'peak RSS MiB': fmt.mb(median(r.rss)),
      });
    }
  }
  table(rows, [
    'mode',
    'server',
    'req/s',
    `${label} ×`,
    'server CPU ms/req',
    `CPU ÷ ${label}`,
    'gzip bytes',
    'peak RSS MiB',
  ]);
}
