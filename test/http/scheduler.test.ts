/**
 * Politeness by counting, not timing: the scheduler's rules with a fake clock, and `validate --live`
 * (which runs on it) observed from the server: never more requests in flight on a host than allowed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { delayForRate, HostScheduler, hostKey } from '../../src/http/scheduler.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { type Listening, listen } from './listen.js';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('HostScheduler', () => {
  it('caps requests in flight per host, spaces starts by the rate, and Crawl-delay wins', () => {
    const s = new HostScheduler({ concurrency: 2, delayMs: delayForRate(4) });
    expect(delayForRate(4)).toBe(250);
    expect(s.readyAt('a', 0)).toBe(0);
    s.start('a', 0);
    expect(s.readyAt('a', 0)).toBe(250);
    s.start('a', 250);
    expect(s.readyAt('a', 300)).toBe(Number.POSITIVE_INFINITY);
    expect(s.readyAt('b', 300)).toBe(300);
    s.finish('a');
    expect(s.readyAt('a', 300)).toBe(500);
    s.setCrawlDelay('a', 2000);
    expect(s.limits('a')).toEqual({ concurrency: 1, delayMs: 2000 });
    expect(s.readyAt('a', 300)).toBe(Number.POSITIVE_INFINITY);
    s.finish('a');
    expect(s.readyAt('a', 300)).toBe(2250);
    s.pause('a', 5000);
    expect(s.readyAt('a', 300)).toBe(5000);
    expect(() => s.start('a', 300)).toThrow(/not ready/);
  });

  it('books the starts of requests that ride on a started page in the spacing, with no place taken', () => {
    const s = new HostScheduler({ concurrency: 1, delayMs: 200 });
    s.start('a', 0);
    expect(s.readyAt('a', 0)).toBe(Number.POSITIVE_INFINITY);
    // The page holds the only place; its scripts' requests still go out, one gap apart.
    expect([s.book('a', 10), s.book('a', 10), s.book('a', 500)]).toEqual([200, 400, 600]);
    s.pause('a', 1000);
    expect(s.book('a', 700)).toBe(1000);
    s.finish('a');
    // The next page keeps its gap from the last booked start.
    expect(s.readyAt('a', 1000)).toBe(1200);
    expect(new HostScheduler({ concurrency: 1, delayMs: 0 }).book('b', 5)).toBe(5);
  });

  it('keys hosts by host and port, credentials left out', () => {
    expect(hostKey('https://User:pw@Example.COM:8443/x?y')).toBe('example.com:8443');
    expect(hostKey('mailto:x@example.com')).toBe('');
  });
});

describe('validate --live on the host scheduler', () => {
  it('keeps exactly perHost requests in flight on the host (never more), as the server sees it', async () => {
    const site = await listen();
    servers.push(site);
    const pages = Array.from({ length: 24 }, (_, i) => `${site.origin}/p${i}`);
    // Pages are held until three are waiting, then answered together a moment later: a client
    // that keeps three in flight goes on, one that sent a fourth shows it. A request counts until
    // it is answered (not until its socket closes), so a correct client can never be seen above 3.
    const waiting: Array<() => void> = [];
    let peak = 0;
    let releasing = false;
    for (const p of pages) {
      site.route(new URL(p).pathname, (_req, res) => {
        waiting.push(() => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title>'));
        peak = Math.max(peak, waiting.length);
        if (waiting.length >= 3 && !releasing) {
          releasing = true;
          setTimeout(() => {
            releasing = false;
            for (const answer of waiting.splice(0)) answer();
          }, 20);
        }
      });
    }
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${pages.map((p) => `<url><loc>${p}</loc></url>`).join('')}</urlset>`;
    site.route(
      '/sitemap.xml',
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/xml' }).end(xml),
    );
    const r = await validateSitemap(`${site.origin}/sitemap.xml`, {
      robots: false,
      live: { concurrency: 8, perHost: 3, method: 'get' },
    });
    expect(r.summary.checked).toBe(pages.length);
    expect(peak).toBe(3);
  });
});
