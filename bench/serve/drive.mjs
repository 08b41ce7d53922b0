// The driver of the serving benches (bench/handler.mjs, bench/handler-store.mjs): each server in
// its own process (with the peak-RSS hook), gzip accepted, no conditional headers; cold (every
// request generates) and warm (cached) runs, the server's CPU per request read from /proc, the
// client's own CPU per request beside it, medians of the runs. Two clients drive the same servers
// alike: a lean undici client in this process (cold, and warm), and wrk (warm: in C, in a process
// of its own, it does not set the pace; bench/serve/wrk.mjs). Every server's answer is checked
// before it is timed: status, Content-Encoding, and the body's length against a reference fetch.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Pool } from 'undici';
import { fmt, OUT, table } from '../lib.mjs';
import { ensureWrk, rawFetch, runWrk } from './wrk.mjs';

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

/**
 * The decompressed document of a first answer, checked: every URL, the closing tag, and no bytes
 * after the gzip member (gunzip ignores some). A bad answer is kept in bench/out for a look (one
 * run once served a valid gzip of 48,977 URLs instead of 50,000 and could not be studied).
 */
function checkDocument(who, mode, body, urls) {
  let text;
  let member = body.length;
  let why;
  try {
    const r = gunzipSync(body, { info: true });
    text = r.buffer;
    member = r.engine.bytesWritten;
  } catch (error) {
    why = `not a whole gzip (${error.message})`;
  }
  if (why === undefined) {
    const found = text.toString().match(/<url>/g)?.length ?? 0;
    if (found !== urls) why = `${found} URLs, not ${urls}`;
    else if (!/<\/urlset>\s*$/.test(text.toString())) why = 'a document that does not end with </urlset>';
    else if (member !== body.length)
      why = `a gzip member of ${member} bytes followed by ${body.length - member} more`;
  }
  if (why === undefined) return text;
  const file = join(OUT, `handler-bad-${who.replace(/[^a-z0-9]+/gi, '-')}-${mode}-${Date.now()}.gz`);
  writeFileSync(file, body);
  throw new Error(`${who} (${mode}, first request to a fresh server) served ${why}: the body is in ${file}`);
}

async function load(pool, server, { seconds, requests }) {
  let done = 0;
  const cpu0 = server.cpu();
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const worker = async () => {
    while (requests !== undefined ? done < requests : performance.now() < until) {
      done++;
      await fetchOnce(pool);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const own = process.cpuUsage(own0);
  return {
    rps: done / ((performance.now() - t0) / 1000),
    cpuMs: ((server.cpu() - cpu0) * 1000) / done,
    clientCpuMs: (own.user + own.system) / 1000 / done,
  };
}

/** wrk against the server for `seconds`; its bytes read per request must be one answer's length. */
async function loadWrk(server, seconds, answerBytes, who) {
  const cpu0 = server.cpu();
  const r = await runWrk(server.origin, { seconds, connections: CONCURRENCY });
  const cpuMs = ((server.cpu() - cpu0) * 1000) / r.requests;
  // Keep-alive answers differ from the reference (Connection: close) by a header or two, and the
  // answers in flight when wrk stops are counted in its bytes but not its requests.
  if (Math.abs(r.bytesPerRequest - answerBytes) > 200 + answerBytes / r.requests)
    throw new Error(
      `${who}: wrk read ${r.bytesPerRequest.toFixed(0)} bytes a request, one answer is ${answerBytes}`,
    );
  return { rps: r.rps, cpuMs, clientCpuMs: r.clientCpuMs };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Runs every server cold and warm, `runs` times; returns rps, CPU ms and RSS per `who|mode`. */
export async function measure(servers, { urls: URLS, runs: RUNS }) {
  ensureWrk();
  const results = {};
  for (let run = 0; run < RUNS; run++) {
    for (const [who, spec] of Object.entries(servers)) {
      for (const mode of ['cold', 'warm']) {
        const server = await startServer(spec, mode === 'cold');
        const pool = new Pool(server.origin, { connections: CONCURRENCY });
        let first = await fetchOnce(pool, true);
        const text = checkDocument(who, mode, first, URLS);
        if (mode === 'warm') {
          // Asked for again, a cached file is made smaller once (the handler recompresses its gzip
          // at level 9 in the background, on a loaded machine for seconds): time what the server
          // sends from then on, once it is the smaller answer (a server whose spec says it never
          // recompresses, the README route, as it is), and check it is the same document.
          const generated = first.length;
          await fetchOnce(pool);
          first = await fetchOnce(pool, true);
          for (let waited = 0; spec.recompresses !== false && first.length >= generated; waited += 250) {
            if (waited >= 60_000)
              throw new Error(`${who}: the cached answer was not recompressed within a minute`);
            await new Promise((r) => setTimeout(r, 250));
            first = await fetchOnce(pool, true);
          }
          if (!gunzipSync(first).equals(text)) throw new Error(`${who} served another document when warm`);
        }
        const raw = await rawFetch(server.origin);
        if (raw.status !== 200 || raw.encoding !== 'gzip' || raw.bodyBytes !== first.length)
          throw new Error(
            `${who}: a raw GET got ${raw.status} ${raw.encoding} ${raw.bodyBytes} bytes, undici got 200 gzip ${first.length}`,
          );
        const runs = {};
        if (mode === 'warm') {
          runs['warm, undici'] = await load(pool, server, { seconds: WARM_SECONDS });
          runs['warm, wrk'] = await loadWrk(server, WARM_SECONDS, raw.answerBytes, who);
        } else runs.cold = await load(pool, server, { requests: COLD_REQUESTS });
        await pool.close();
        const rss = await server.stop();
        for (const [m, { rps, cpuMs, clientCpuMs }] of Object.entries(runs)) {
          results[`${who}|${m}`] ??= { rps: [], cpu: [], client: [], rss: [], bytes: first.length };
          const r = results[`${who}|${m}`];
          r.rps.push(rps);
          r.cpu.push(cpuMs);
          r.client.push(clientCpuMs);
          r.rss.push(rss);
        }
      }
    }
  }
  return results;
}

/** Prints the results as one table, each row's ratios against the server `ours` (its short name `label`). */
export function printResults(results, servers, ours, label) {
  const rows = [];
  for (const mode of ['cold', 'warm, undici', 'warm, wrk']) {
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
        'client CPU ms/req': median(r.client).toFixed(3),
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
    'client CPU ms/req',
    'gzip bytes',
    'peak RSS MiB',
  ]);
}
