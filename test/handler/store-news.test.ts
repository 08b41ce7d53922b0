/**
 * storeSource applies the news window as a store build does: a news block published before the
 * window is served without it, byte for byte the file a build at the same time writes; a block
 * that falls out of the window as time passes (no write) changes only its own file.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { createNodeSitemapHandler, storeSource, toNodeListener } from '../../src/handler/node.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../support/tmp.js';
import { BASE, get, xsdProblems } from './fixtures.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 10, 12);

/** Entries 1–10; 2, 4 and 7 are news articles published 72, 24 and 12 hours before T0. */
function entries(): SitemapEntryInput[] {
  const age: Record<number, number> = { 2: 72, 4: 24, 7: 12 };
  return Array.from({ length: 10 }, (_, k) => {
    const i = k + 1;
    const e: SitemapEntryInput = { loc: `${BASE}news/${i}`, lastmod: '2026-03-01' };
    const hours = age[i];
    if (hours !== undefined)
      e.news = {
        publication: { name: 'The Daily', language: 'en' },
        publication_date: new Date(T0 - hours * HOUR).toISOString().replace('.000Z', 'Z'),
        title: `Article ${i}`,
      };
    return e;
  });
}

async function buildAt(path: string, ms: number, out: string): Promise<void> {
  const store = await openStore(path, { now: () => new Date(ms) });
  await store.build({ outDir: out, lastmodPolicy: 'keep', force: true });
  await store.close();
}

describe('storeSource and the news window', () => {
  it('serves news blocks as a build at the same time publishes them, and moves on only the file whose block expired', async () => {
    const dir = tempDir('sk-store-news');
    const path = join(dir, 'site.db');
    const writer = await openStore(path, { baseUrl: BASE, maxUrlsPerFile: 5, now: () => new Date(T0) });
    await writer.add(entries());
    await writer.close();
    let clock = T0;
    const reader = await openStore(path, { readOnly: true });
    const handler = createNodeSitemapHandler({
      ...storeSource(reader, { now: () => new Date(clock) }),
      maxAge: 0,
    });
    const server = createServer(toNodeListener(handler));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await buildAt(path, T0, join(dir, 'at-t0'));
      const first = new Map<string, Awaited<ReturnType<typeof get>>>();
      for (const name of ['sitemap-00001.xml', 'sitemap-00002.xml']) {
        const got = await get(origin, `/${name}`);
        expect(xsdProblems(name, got.text)).toBe('');
        expect([name, got.text]).toEqual([name, readFileSync(join(dir, 'at-t0', name), 'utf8')]);
        first.set(name, got);
      }
      // At T0 the 72-hour-old article is out of the two-day window; the others are in.
      expect(first.get('sitemap-00001.xml')!.text.match(/<news:news>/g)?.length).toBe(1);
      expect(first.get('sitemap-00001.xml')!.text).not.toContain('Article 2');

      // 30 hours later, no write: article 4 (now 54 hours old) is out, article 7 (42 hours) is in.
      clock = T0 + 30 * HOUR;
      await buildAt(path, clock, join(dir, 'later'));
      const one = await get(origin, '/sitemap-00001.xml');
      expect(one.text).toBe(readFileSync(join(dir, 'later', 'sitemap-00001.xml'), 'utf8'));
      expect(one.text).not.toContain('<news:news>');
      expect(one.headers['etag']).not.toBe(first.get('sitemap-00001.xml')!.headers['etag']);
      const two = await get(origin, '/sitemap-00002.xml', {
        'if-none-match': first.get('sitemap-00002.xml')!.headers['etag']!,
      });
      expect(two.status).toBe(304);
      const twoText = await get(origin, '/sitemap-00002.xml');
      expect(twoText.text).toBe(readFileSync(join(dir, 'later', 'sitemap-00002.xml'), 'utf8'));
      expect(twoText.text).toContain('Article 7');

      // newsWindow: false keeps every block (as generate --news-window off).
      const all = createNodeSitemapHandler({ ...storeSource(reader, { newsWindow: false }), maxAge: 0 });
      const kept = await all(new Request(`${BASE}sitemap-00001.xml`));
      expect((await kept.text()).match(/<news:news>/g)?.length).toBe(2);
    } finally {
      await new Promise((r) => server.close(r));
      await reader.close();
    }
  });

  it('refuses a bad news window when the source is made, naming the option', async () => {
    const path = join(tempDir('sk-store-news'), 'site.db');
    const writer = await openStore(path, { baseUrl: BASE });
    await writer.add([{ loc: `${BASE}a` }]);
    await writer.close();
    const reader = await openStore(path, { readOnly: true });
    try {
      expect(() => storeSource(reader, { newsWindow: 'soon' })).toThrow(/newsWindow/);
    } finally {
      await reader.close();
    }
  });
});
