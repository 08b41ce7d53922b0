// Shared bench helpers: a script's flags and setup (benchFlags, requireBuild, ensureAptPackages,
// startCrawlServer), running a contender in its own process with its time and peak RSS (runNode),
// and printing (table, fmt, median, load).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const OUT = fileURLToPath(new URL('./out/', import.meta.url));
mkdirSync(OUT, { recursive: true });

/**
 * Runs `node args…` and returns wall seconds and peak RSS (MiB), from /usr/bin/time's sibling:
 * the child reports its own `process.resourceUsage().maxRSS` through a preload hook.
 * `stdout: 'ignore'` sends the child's output to /dev/null (a whole CLI run, as `> /dev/null`).
 */
export function runNode(args, { env = {}, stdin, stdout: out = 'pipe' } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(
      process.execPath,
      ['--import', new URL('./rss-hook.mjs', import.meta.url).href, ...args],
      {
        env: { ...process.env, ...env },
        stdio: [stdin ? 'pipe' : 'ignore', out, 'pipe'],
      },
    );
    let stderr = '';
    let stdout = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      const m = /SK_MAXRSS=(\d+)/.exec(stderr);
      const rss = m ? Number(m[1]) / 1024 : Number.NaN;
      // CPU seconds too: on a loaded machine they move far less than the wall clock.
      const cpu = /SK_CPU=(\d+)/.exec(stderr);
      const cpuSecs = cpu ? Number(cpu[1]) / 1e6 : Number.NaN;
      const main = /SK_MAIN_CPU=(\d+)/.exec(stderr);
      const mainCpuSecs = main ? Number(main[1]) / 1e6 : Number.NaN;
      // A crawl's peak RSS before and after its last page (rss-hook.mjs), when it marked it.
      const ph = /SK_RSS_PHASES=(\d+),(\d+)/.exec(stderr);
      const phases = ph ? { crawlMiB: Number(ph[1]) / 1024, outputMiB: Number(ph[2]) / 1024 } : undefined;
      stderr = stderr
        .replace(/SK_RSS_PHASES=\d+,\d+\n?/, '')
        .replace(/SK_MAXRSS=\d+\n?/, '')
        .replace(/SK_PID_MAXRSS=\d+:\d+\n?/, '')
        .replace(/SK_CPU=\d+\n?/, '')
        .replace(/SK_MAIN_CPU=\d+\n?/, '');
      resolve({ code, secs, cpuSecs, mainCpuSecs, rssMiB: rss, phases, stderr, stdout });
    });
  });
}

export function table(rows, columns) {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join('  ');
  console.log(line(columns));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(columns.map((c) => r[c] ?? '')));
}

export const fmt = {
  s: (x) => x.toFixed(2),
  n: (x) => Math.round(x).toLocaleString('en-US'),
  mb: (x) => x.toFixed(0),
};

/**
 * The flags of a bench script, read once from the command line. `spec` maps each flag's name
 * (`pages` for `--pages`) to its default, whose type says how the flag reads: a number (`--pages
 * 2000`), a string, `null` (an optional string, undefined when absent) or `false` (a switch:
 * `--no-peer`). `{ value, quick }` gives the value `--quick` uses instead: a smoke run, small sizes
 * and one run, that checks the script end to end in seconds (its figures measure nothing). Every
 * script has `--runs` (default 1 unless `spec` says otherwise; at least 1) and `--quick`. Returns
 * the values under camelCase names (`noPeer`), and `quick`. An unknown flag or a bad number is
 * refused: a typo never runs the default silently.
 */
export function benchFlags(spec, argv = process.argv.slice(2)) {
  const all = { runs: { value: 1, quick: 1 }, ...spec, quick: false };
  const quick = argv.includes('--quick');
  const given = new Map();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].replace(/^--/, '');
    if (!argv[i].startsWith('--') || !(name in all)) {
      throw new Error(
        `unknown flag ${argv[i]}; this script takes ${Object.keys(all)
          .map((k) => `--${k}`)
          .join(', ')}`,
      );
    }
    const dflt = flagDefault(all[name], false);
    if (dflt === false) given.set(name, true);
    else if (i + 1 >= argv.length) throw new Error(`--${name} needs a value`);
    else given.set(name, argv[++i]);
  }
  const out = { quick };
  for (const [name, entry] of Object.entries(all)) {
    if (name === 'quick') continue;
    const dflt = flagDefault(entry, quick);
    let v = given.has(name) ? given.get(name) : dflt;
    if (typeof flagDefault(entry, false) === 'number' && given.has(name)) {
      v = Number(v);
      if (!Number.isFinite(v) || v < 0) throw new Error(`--${name} takes a number, not ${given.get(name)}`);
    }
    out[name.replace(/-(\w)/g, (_, c) => c.toUpperCase())] = v ?? undefined;
  }
  out.runs = quick && !given.has('runs') ? 1 : Math.max(1, out.runs);
  return out;
}

function flagDefault(entry, quick) {
  if (entry !== null && typeof entry === 'object')
    return quick && 'quick' in entry ? entry.quick : entry.value;
  return entry;
}

/** The built CLI (dist/cli/bin.js); throws when it is not built. */
export function requireBuild() {
  // The command as npm installs it (package.json's "bin", dist/cli/bin.cjs since issue 16).
  const bin = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.sitemapkit);
  if (!existsSync(bin)) throw new Error('build first: npm run build');
  return bin;
}

/** Installs the Debian packages whose file `root` is missing (a documentation site), with apt-get. */
export function ensureAptPackages(sites) {
  const missing = sites.filter((s) => !existsSync(s.root)).map((s) => s.pkg);
  if (missing.length === 0) return;
  console.log(`Installing ${missing.join(', ')} with apt-get …`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** bench/crawl-server.mjs in its own process (`args`: a folder and its mount, or `--synthetic N`). */
export function startCrawlServer(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/crawl-server.mjs'), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8').once('data', (d) => {
      const m = /PORT=(\d+)/.exec(d);
      if (m === null) reject(new Error(`server said ${d}`));
      else resolve({ origin: `http://127.0.0.1:${m[1]}`, close: () => child.kill() });
    });
    child.on('error', reject);
  });
}

/** The median (of an even count, the mean of the two middle values). */
export function median(xs) {
  const a = [...xs].sort((x, y) => x - y);
  const m = a.length >> 1;
  return a.length % 2 === 1 ? a[m] : (a[m - 1] + a[m]) / 2;
}

/** The load average, as the scripts print it: `6.1 5.8 5.2`. */
export function load() {
  return loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
}

/**
 * The parse benches' urlset of `n` URLs under `host`, one image each (the 14.3 MB file of 50,000
 * that bench/parse.mjs reads, and each child of bench/parse-tree.mjs's tree).
 */
export function benchUrlset(n, host) {
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n`,
  ];
  for (let i = 0; i < n; i++) {
    const id = String(i).padStart(6, '0');
    const day = String(1 + (i % 28)).padStart(2, '0');
    parts.push(
      `  <url>\n    <loc>${host}/products/category-${i % 97}/item-${id}.html</loc>\n    <lastmod>2024-08-${day}T09:12:00+00:00</lastmod>\n    <changefreq>weekly</changefreq>\n    <image:image>\n      <image:loc>https://cdn.example.com/images/${id}.jpg</image:loc>\n    </image:image>\n  </url>\n`,
    );
  }
  parts.push('</urlset>\n');
  return parts.join('');
}
