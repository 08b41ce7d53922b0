// HTML site map benchmark: HtmlSitemapBuilder (streaming, one page per section in memory) against
// a bare script that collects every entry first and then writes the same pages with template
// strings (no URL checks). No npm package writes HTML site maps, so the bare script is the peer.
// Each contender runs in its own child process; peak RSS is its own process.resourceUsage().maxRSS.
//
//   npm run build && node bench/html-sitemap.mjs [URLS]        (default 1,000,000; 10 sections)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const SECTIONS = 10;
const PER_PAGE = 100;

function* entries(n) {
  for (let i = 0; i < n; i++) {
    const s = i % SECTIONS;
    yield {
      loc: `https://example.com/s${s}/item-${i}`,
      title: `Item ${i} & "friends" <${s}>`,
      section: `s${s}`,
      lastmod: '2024-01-02',
    };
  }
}

async function runSitemapkit(n, dir) {
  const { HtmlSitemapBuilder } = await import('../dist/index.js');
  const builder = new HtmlSitemapBuilder({ dir, baseUrl: 'https://example.com/' });
  for (const e of entries(n)) await builder.add(e);
  return (await builder.finish()).length;
}

function runBare(n, dir) {
  const esc = (s) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const bySection = new Map();
  for (const e of entries(n)) {
    const list = bySection.get(e.section);
    if (list === undefined) bySection.set(e.section, [e]);
    else list.push(e);
  }
  let files = 0;
  for (const [section, list] of bySection) {
    for (let p = 0; p * PER_PAGE < list.length; p++) {
      const items = list
        .slice(p * PER_PAGE, (p + 1) * PER_PAGE)
        .map((e) => `<li><a href="${esc(e.loc)}">${esc(e.title)}</a> <time>${e.lastmod}</time></li>\n`)
        .join('');
      const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${section} ${p + 1}</title></head><body><ol>\n${items}</ol></body></html>\n`;
      writeFileSync(join(dir, `sitemap-${section}-${String(p + 1).padStart(5, '0')}.html`), html);
      files++;
    }
  }
  writeFileSync(join(dir, 'sitemap.html'), '<!DOCTYPE html><title>x</title>');
  return files + 1;
}

if (process.argv[2] === '--child') {
  const [, , , who, nText, dir] = process.argv;
  const n = Number(nText);
  const t0 = process.hrtime.bigint();
  const files = who === 'sitemapkit' ? await runSitemapkit(n, dir) : runBare(n, dir);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(`${JSON.stringify({ secs, files, rssKiB: process.resourceUsage().maxRSS })}\n`);
} else {
  const n = Number(process.argv[2] ?? 1_000_000);
  const rows = [];
  for (const who of ['sitemapkit', 'bare']) {
    const dir = mkdtempSync(join(tmpdir(), `sitemapkit-bench-html-${who}-`));
    mkdirSync(dir, { recursive: true });
    const r = spawnSync(process.execPath, [SELF, '--child', who, String(n), dir], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${who} failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    if (readdirSync(dir).length !== out.files) throw new Error(`${who}: file count mismatch`);
    rmSync(dir, { recursive: true, force: true });
    rows.push({ who, ...out });
  }
  const bare = rows.find((r) => r.who === 'bare');
  console.log(
    `HTML site map, ${n.toLocaleString('en-US')} URLs in ${SECTIONS} interleaved sections, ${PER_PAGE} links a page`,
  );
  console.log('contender    seconds   URLs/s      vs bare   peak RSS MiB   files');
  for (const r of rows) {
    console.log(
      [
        r.who.padEnd(11),
        r.secs.toFixed(2).padStart(8),
        Math.round(n / r.secs)
          .toLocaleString('en-US')
          .padStart(10),
        `${(r.secs / bare.secs).toFixed(2)}x`.padStart(10),
        (r.rssKiB / 1024).toFixed(0).padStart(14),
        String(r.files).padStart(7),
      ].join(' '),
    );
  }
}
