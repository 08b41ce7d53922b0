// The crawler's robots.txt gate keeps RobotsCache's lifetimes (one cache, one policy): an
// unreachable robots.txt is tried again after the cache's short retry, and a failed refresh keeps
// the previous rules. Against a real server on 127.0.0.1, with a fake clock.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { crawl } from '../../src/crawler/crawl.js';
import { RobotsCache, type RobotsFetchResult } from '../../src/robots/fetch.js';
import { type GateVerdict, RobotsGate } from '../../src/robots/gate.js';
import { html, type TestServer as Site, startServer as startSite } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A site whose robots.txt answers what `robots` holds at the time of the request. */
async function robotsSite(): Promise<{ site: Site; robots: { status: number; body: string } }> {
  const robots = { status: 200, body: '' };
  const site = await startSite({
    '/robots.txt': (_req, res) => {
      res.writeHead(robots.status, { 'content-type': 'text/plain' }).end(robots.body);
    },
  });
  sites.push(site);
  return { site, robots };
}

function gateOver(clock: { now: number }) {
  const cache = new RobotsCache({ now: () => clock.now, userAgent: 'sitemapkit-test' });
  const applied: RobotsFetchResult[] = [];
  let settled: (() => void) | undefined;
  const gate = new RobotsGate(cache, {
    enabled: true,
    agent: 'sitemapkit',
    onRules: (_origin, r) => applied.push(r),
    onSettled: () => settled?.(),
  });
  /** The verdict, waiting for robots.txt when the gate has to fetch it; `fetched` says whether it did. */
  const ask = async (origin: string, path: string): Promise<{ verdict: GateVerdict; fetched: boolean }> => {
    const now = gate.verdict(origin, origin + path);
    if (now !== undefined) return { verdict: now, fetched: false };
    await new Promise<void>((r) => {
      settled = r;
    });
    const later = gate.verdict(origin, origin + path);
    if (later === undefined) throw new Error('still pending after robots.txt arrived');
    return { verdict: later, fetched: true };
  };
  return { ask, applied };
}

describe('robots gate over RobotsCache', () => {
  it('an unreachable robots.txt disallows, and is asked again after the cache short retry (not 24 h later)', async () => {
    const { site, robots } = await robotsSite();
    const clock = { now: Date.parse('2026-07-01T00:00:00Z') };
    const { ask, applied } = gateOver(clock);
    robots.status = 503;
    robots.body = 'down';
    const first = await ask(site.origin, '/a');
    expect(first).toMatchObject({ fetched: true, verdict: { allowed: false } });
    expect(applied.map((r) => r.status)).toEqual(['unreachable']);
    // Within the retry interval the outcome is kept: no new request.
    clock.now += 4 * MINUTE;
    expect(await ask(site.origin, '/a')).toMatchObject({ fetched: false, verdict: { allowed: false } });
    expect(site.hits('/robots.txt')).toBe(1);
    // After it (5 minutes by default), robots.txt is asked again, and its rules now apply.
    robots.status = 200;
    robots.body = 'User-agent: *\nDisallow: /private\n';
    clock.now += 2 * MINUTE;
    expect(await ask(site.origin, '/a')).toEqual({ fetched: true, verdict: { allowed: true } });
    expect((await ask(site.origin, '/private/x')).verdict.allowed).toBe(false);
    expect(site.hits('/robots.txt')).toBe(2);
    expect(applied.map((r) => r.status)).toEqual(['unreachable', 'ok']);
  });

  it('a refresh that finds robots.txt unreachable keeps the previous rules, and is tried again soon', async () => {
    const { site, robots } = await robotsSite();
    const clock = { now: Date.parse('2026-07-01T00:00:00Z') };
    const { ask, applied } = gateOver(clock);
    robots.body = 'User-agent: *\nDisallow: /private\n';
    expect((await ask(site.origin, '/private/a')).verdict.allowed).toBe(false);
    // A day later the copy has expired, and the server fails.
    clock.now += DAY + MINUTE;
    robots.status = 500;
    robots.body = 'oops';
    const refreshed = await ask(site.origin, '/public');
    expect(refreshed).toEqual({ fetched: true, verdict: { allowed: true } });
    expect((await ask(site.origin, '/private/a')).verdict.allowed).toBe(false);
    expect(applied.at(-1)).toMatchObject({ status: 'ok', stale: true });
    expect(site.hits('/robots.txt')).toBe(2);
    // The stale copy is used only until the next try: new rules replace it.
    robots.status = 200;
    robots.body = 'User-agent: *\nDisallow: /other\n';
    clock.now += 6 * MINUTE;
    expect(await ask(site.origin, '/private/a')).toEqual({ fetched: true, verdict: { allowed: true } });
    expect((await ask(site.origin, '/other')).verdict.allowed).toBe(false);
    expect(site.hits('/robots.txt')).toBe(3);
  });

  it('off: everything is allowed and nothing is fetched', async () => {
    const { site } = await robotsSite();
    const cache = new RobotsCache();
    const gate = new RobotsGate(cache, {
      enabled: false,
      agent: 'sitemapkit',
      onRules: () => undefined,
      onSettled: () => undefined,
    });
    expect(gate.verdict(site.origin, `${site.origin}/x`)).toEqual({ allowed: true });
    expect(site.hits('/robots.txt')).toBe(0);
  });
});

describe('a crawl and an unreachable robots.txt of another host', () => {
  it('the host is tried again after the short retry: its later URLs are crawled once robots.txt answers', async () => {
    let clock = Date.parse('2026-07-01T00:00:00Z');
    let bxDone = false;
    const other = await startSite({
      '/robots.txt': (_req, res, { hit }) => {
        if (hit === 1) res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
        else res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      },
      '/x': html('X'),
      '/y': html('Y'),
    });
    sites.push(other);
    const s = await startSite({
      '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
      '/': html('Home', `<a href="${other.origin}/x">x</a><a href="/mid">mid</a>`),
      '/mid': html('Mid', '<a href="/later">later</a>'),
      // Answers only once the other host's first URL was judged by its (unreachable) robots.txt.
      '/later': (_req, res) => {
        const answer = (): void => {
          if (!bxDone) {
            setTimeout(answer, 5);
            return;
          }
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(`<title>Later</title><a href="${other.origin}/y">y</a>`);
        };
        answer();
      },
    });
    sites.push(s);
    const dir = tempDir('sk-crawl-robots-retry');
    const diagnostics: Diagnostic[] = [];
    const report = join(dir, 'report');
    await crawl({
      start: `${s.origin}/`,
      outDir: join(dir, 'out'),
      state: join(dir, 'state.db'),
      report,
      concurrency: 1,
      hosts: [new URL(other.origin).host],
      now: () => clock,
      onDiagnostic: (d) => diagnostics.push(d),
      onPage: (p) => {
        if (p.url === `${other.origin}/x`) {
          // Six minutes pass: longer than the cache keeps an unreachable robots.txt (five).
          clock += 6 * MINUTE;
          bxDone = true;
        }
      },
    });
    const rows = new Map(
      readFileSync(join(report, 'urls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { url: string; verdict: string })
        .map((r) => [r.url, r]),
    );
    expect(rows.get(`${other.origin}/x`)?.verdict).toBe('robots');
    expect(rows.get(`${other.origin}/y`)?.verdict).toBe('listed');
    expect(other.hits('/robots.txt')).toBe(2);
    expect(other.hits('/x')).toBe(0);
    expect(other.hits('/y')).toBe(1);
    expect(diagnostics.filter((d) => d.code === 'robots-unreachable')).toHaveLength(1);
  });
});
