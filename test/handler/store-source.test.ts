/**
 * storeSource over an SQLite store (store-source-suite.ts), and what only SQLite has: a writer that
 * holds the file while the app serves, hit on purpose by keeping a writer open.
 */
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeSitemapHandler, type ServableStore, storeSource } from '../../src/handler/node.js';
import { openStore, type SiteStore } from '../../src/store/index.js';
import { readFileEntries, type StoreReads } from '../../src/store/read.js';
import { sqliteTarget } from '../store/targets.js';
import { tempDir } from '../support/tmp.js';
import { BASE, get } from './fixtures.js';
import { serveStore, storeSourceSuite } from './store-source-suite.js';

storeSourceSuite(sqliteTarget);

describe('storeSource while a writer holds the SQLite store', () => {
  it('answers from its cache (200, 304) while a writer holds the file, else 503 with Retry-After', async () => {
    const path = join(tempDir('sk-store-busy'), 'site.db');
    const writer = await openStore(path, { baseUrl: BASE, maxUrlsPerFile: 2 });
    await writer.add([1, 2, 3, 4, 5].map((i) => ({ loc: `${BASE}p/${i}` })));
    await writer.close();
    const reader = await openStore(path, { readOnly: true });
    const app = await serveStore(reader);
    try {
      const first = await get(app.origin, '/sitemap-00001.xml');
      expect(first.status).toBe(200);
      const index = await get(app.origin, '/sitemap.xml');
      // The window: a writer (a cron `generate --store`) holds the file from open to close.
      const holder = await openStore(path);
      try {
        await expect(reader.files()).rejects.toMatchObject({ code: 'ERR_BUSY' });
        const cached = await get(app.origin, '/sitemap-00001.xml');
        expect(cached.status).toBe(200);
        expect(cached.text).toBe(first.text);
        expect(cached.headers['etag']).toBe(first.headers['etag']);
        expect((await get(app.origin, '/sitemap.xml')).text).toBe(index.text);
        const conditional = await get(app.origin, '/sitemap-00001.xml', {
          'if-none-match': first.headers['etag']!,
        });
        expect(conditional.status).toBe(304);
        // Never generated before the writer came: nothing to serve it from.
        const missing = await get(app.origin, '/sitemap-00002.xml');
        expect(missing.status).toBe(503);
        expect(missing.headers['retry-after']).toBe('5');
        expect(missing.text).toMatch(/being written by another process/);
        await holder.add([{ loc: `${BASE}p/6` }]);
      } finally {
        await holder.close();
      }
      const later = await get(app.origin, '/sitemap-00002.xml');
      expect(later.status).toBe(200);
      expect((await get(app.origin, '/sitemap.xml')).text).toContain('sitemap-00003.xml');
    } finally {
      await app.close();
      await reader.close();
    }
  });

  it('a writer that comes between the version and the body: a 503 before the status line, not a cut-off 200', async () => {
    const path = join(tempDir('sk-store-busy'), 'site.db');
    const writer = await openStore(path, { baseUrl: BASE, maxUrlsPerFile: 2 });
    await writer.add([1, 2, 3].map((i) => ({ loc: `${BASE}p/${i}` })));
    await writer.close();
    const reader = await openStore(path, { readOnly: true });
    let holder: SiteStore | undefined;
    // The window on purpose: the writer opens once the handler has its version and layout and
    // asks for the file's entries.
    const store: ServableStore = {
      path: reader.path,
      settings: reader.settings,
      files: () => reader.files(),
      generation: () => reader.generation(),
      async *fileEntries(name) {
        holder ??= await openStore(path);
        yield* reader.fileEntries(name);
      },
    };
    const handler = createNodeSitemapHandler({ ...storeSource(store), maxAge: 0 });
    try {
      const busy = await handler(new Request(`${BASE}sitemap-00002.xml`));
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('5');
      await holder!.close();
      const ok = await handler(new Request(`${BASE}sitemap-00002.xml`));
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain(`${BASE}p/3`);
    } finally {
      await holder?.close();
      await reader.close();
    }
  });

  it('the generation known from the file times still moves with the next write', async () => {
    const path = join(tempDir('sk-store-gen'), 'site.db');
    const writer = await openStore(path, { baseUrl: BASE });
    await writer.add([{ loc: `${BASE}p/1` }]);
    await writer.close();
    const reader = await openStore(path, { readOnly: true });
    // Times an hour old (after the reader's open made the WAL file): past the racy second, so the
    // reader trusts them from now on.
    const old = new Date(Date.now() - 3_600_000);
    for (const p of [path, `${path}-wal`]) if (existsSync(p)) utimesSync(p, old, old);
    try {
      const g1 = await reader.generation();
      expect(await reader.generation()).toBe(g1);
      const again = await openStore(path);
      await again.add([{ loc: `${BASE}p/2` }]);
      await again.close();
      expect(await reader.generation()).toBe(g1 + 1);
    } finally {
      await reader.close();
    }
  });

  it('a read-only open says what is wrong in one sentence: no store, not a store, a writer holding it', async () => {
    const dir = tempDir('sk-store-ro');
    await expect(openStore(join(dir, 'missing.db'), { readOnly: true })).rejects.toMatchObject({
      code: 'ERR_STATE',
      message: expect.stringMatching(/^cannot open the site store: /),
      hint: expect.stringMatching(/needs an existing store/),
    });
    writeFileSync(
      join(dir, 'notes.db'),
      'not a database, just text that is long enough to be read as a header',
    );
    await expect(openStore(join(dir, 'notes.db'), { readOnly: true })).rejects.toMatchObject({
      code: 'ERR_STATE',
    });
    const path = join(dir, 'site.db');
    const holder = await openStore(path, { baseUrl: BASE });
    try {
      await holder.add([{ loc: `${BASE}p/1` }]);
      await expect(openStore(path, { readOnly: true })).rejects.toMatchObject({
        code: 'ERR_BUSY',
        message: 'the site store is being written by another process',
      });
    } finally {
      await holder.close();
    }
    const reader = await openStore(path, { readOnly: true });
    await reader.close();
  });

  it('a file whose store changes between two pages of its read fails with ERR_BUSY, never mixing versions', async () => {
    let generation = 1;
    const reads: StoreReads = {
      files: async () => ({ generation, files: [{ id: 1, section: '', num: 1, urls: 6000, changed: 1 }] }),
      entries: async (_file, after) => {
        const rows =
          after >= 6000
            ? []
            : Array.from({ length: 5000 }, (_, i) => ({
                id: after + i + 1,
                loc: `${BASE}p/${after + i + 1}`,
                lastmod: null,
                entry: null,
              }));
        const out = { generation, rows };
        generation = 2;
        return out;
      },
    };
    let n = 0;
    const read = async (): Promise<void> => {
      for await (const _ of readFileEntries(reads, 'sitemap-00001', 'test')) n++;
    };
    await expect(read()).rejects.toMatchObject({ code: 'ERR_BUSY' });
    expect(n).toBe(5000);
  });
});
