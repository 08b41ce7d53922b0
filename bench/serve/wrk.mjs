// wrk (the C load generator, Debian's `wrk`) as the serving benches' client: epoll and a C HTTP
// parser that counts the body and keeps none of it, in a process of its own, so the client does
// not set the pace (the undici client in Node spent more CPU on a 391 KB answer than the server
// did). Installed with apt-get when missing, as scripts/ensure-system-deps.mjs installs the test
// tools. Its own CPU per request is measured and printed too: os.clock() in its done() callback
// is the CPU time of the whole wrk process (every thread, after they are joined).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { OUT } from '../lib.mjs';

const SCRIPT = join(OUT, 'wrk-report.lua');
writeFileSync(
  SCRIPT,
  `wrk.headers["Accept-Encoding"] = "gzip"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"bytes":%d,"micros":%d,"cpu":%.6f,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.bytes, summary.duration, os.clock(), e.connect, e.read, e.write, e.status, e.timeout))
end
`,
);

/** Installs wrk with apt-get when it is missing; throws a sentence when that fails. */
export function ensureWrk() {
  if (spawnSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' }).status === 0) return;
  console.error('bench: installing wrk with apt-get ...');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const run = (args) =>
    execFileSync(sudo.length ? 'sudo' : args[0], sudo.length ? args : args.slice(1), {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  try {
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'wrk']);
  } catch (error) {
    throw new Error(
      `bench: could not install wrk (${error.message}): apt-get install wrk, and run the bench again`,
    );
  }
}

/**
 * One raw GET of `path` with gzip accepted, as wrk sends it: the whole answer's length (status
 * line, headers and body), its status, Content-Encoding and body length, to check wrk's byte
 * count against.
 */
export async function rawFetch(origin, path = '/sitemap.xml') {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`,
  );
  const chunks = [];
  for await (const c of socket) chunks.push(c);
  const all = Buffer.concat(chunks);
  const end = all.indexOf('\r\n\r\n');
  const head = all.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
  const encoding = /\r\ncontent-encoding:\s*([^\r]*)/i.exec(head)?.[1] ?? '';
  let bodyBytes = all.length - end - 4;
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    // A streamed answer: the body is the chunks' sizes added up.
    bodyBytes = 0;
    for (let at = end + 4; ; ) {
      const eol = all.indexOf('\r\n', at);
      const size = Number.parseInt(all.subarray(at, eol).toString('latin1'), 16);
      if (!(size > 0)) break;
      bodyBytes += size;
      at = eol + 2 + size + 2;
    }
  }
  // Connection: close changes the headers by that line only; keep-alive answers carry
  // "Connection: keep-alive" (and Keep-Alive) instead, so the length is compared loosely.
  return { status, encoding, bodyBytes, answerBytes: all.length };
}

/**
 * Drives `origin` with wrk for `seconds` (`threads` threads, `connections` keep-alive
 * connections) and returns requests, requests a second, wrk's own CPU ms per request, and the
 * bytes read per request (to check against one answer's length).
 */
export async function runWrk(origin, { seconds, threads = 1, connections = 4, path = '/sitemap.xml' }) {
  const child = spawn(
    'wrk',
    ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '-s', SCRIPT, `${origin}${path}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const [code] = await once(child, 'close');
  const m = /WRK_JSON (\{.*\})/.exec(out);
  if (code !== 0 || m === null) throw new Error(`wrk failed (exit ${code}): ${err || out}`);
  const r = JSON.parse(m[1]);
  const errors = r.connect + r.read + r.write + r.status + r.timeout;
  if (errors > 0) throw new Error(`wrk saw ${errors} failed requests against ${origin}: ${m[1]}`);
  return {
    requests: r.requests,
    rps: r.requests / (r.micros / 1e6),
    clientCpuMs: (r.cpu * 1000) / r.requests,
    bytesPerRequest: r.bytes / r.requests,
  };
}
