/**
 * The handler serving a site store from an Express app on 127.0.0.1, over each backend: the
 * served set is the set a store build publishes (byte for byte), a write changes only the child
 * that holds the changed URL (the others keep their bytes, ETag and 304), and a reader never
 * takes the store's lock.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { createNodeSitemapHandler, storeSource, toNodeListener } from '../../src/handler/node.js';
import { openStore, type SiteStore } from '../../src/store/index.js';
import type { StoreTarget } from '../store/targets.js';
import { tempDir } from '../support/tmp.js';
import { BASE, get, xsdProblems } from './fixtures.js';

function entry(i: number, lastmod = '2026-01-01'): SitemapEntryInput {
  const e: SitemapEntryInput = { loc: `${BASE}p/${i}`, lastmod };
  // Every fifth entry has an image: its JSON goes through the store's entry column.
  if (i % 5 === 0) e.images = [{ loc: `${BASE}img/${i}.jpg`, title: `Picture ${i}` }];
  if (i >= 30) e.section = 'blog';
  return e;
}

export async function serveStore(store: SiteStore): Promise<{ origin: string; close(): Promise<void> }> {
  const app = express();
  app.use(toNodeListener(createNodeSitemapHandler({ ...storeSource(store), maxAge: 0 })));
  const server = createServer(app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** The children an index lists, by name. */
function childrenOf(index: string): string[] {
  return [...index.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.slice(BASE.length));
}

export function storeSourceSuite(target: StoreTarget): void {
  describe(`storeSource over ${target.name}`, () => {
    const open: Array<{ close(): Promise<void> }> = [];
    afterEach(async () => {
      for (const c of open.splice(0).reverse()) await c.close();
    });

    it('serves the set a store build publishes, and a write changes only the child that holds the URL', async () => {
      const dir = tempDir('sk-store-source');
      const path = target.fresh(dir);
      const writer = await openStore(path, {
        baseUrl: BASE,
        maxUrlsPerFile: 10,
        now: () => new Date(Date.UTC(2026, 0, 2)),
      });
      await writer.add(Array.from({ length: 35 }, (_, i) => entry(i + 1)));
      const out = join(dir, 'out');
      const built = await writer.build({ outDir: out, lastmodPolicy: 'keep' });
      await writer.close();

      const reader = await openStore(path, { readOnly: true });
      open.push(reader);
      const app = await serveStore(reader);
      open.push(app);

      const index = await get(app.origin, '/sitemap.xml');
      expect(index.status).toBe(200);
      expect(xsdProblems('sitemap.xml', index.text)).toBe('');
      const children = childrenOf(index.text);
      // The names a store build publishes (generate --store), in its index order.
      expect(children).toEqual(built.files.filter((f) => f.kind === 'urlset').map((f) => f.path));
      // Built since its last write: the build's own index, each child dated as the build dated it.
      expect(index.text).toBe(readFileSync(join(out, 'sitemap.xml'), 'utf8'));
      const etags = new Map<string, string>();
      const bodies = new Map<string, string>();
      for (const name of children) {
        const got = await get(app.origin, `/${name}`, { 'accept-encoding': 'gzip' });
        expect(got.status).toBe(200);
        expect(xsdProblems(name, got.text)).toBe('');
        // Byte for byte the file the build wrote.
        expect(got.text).toBe(readFileSync(join(out, name), 'utf8'));
        etags.set(name, got.headers['etag']!);
        bodies.set(name, got.text);
      }

      // A write by another process (here: after the reader opened): one URL of the second file changes.
      const again = await openStore(path, { now: () => new Date(Date.UTC(2026, 0, 3)) });
      await again.add([entry(13, '2026-01-03')]);
      const rebuilt = await again.build({ outDir: out, lastmodPolicy: 'keep' });
      await again.close();
      expect(rebuilt.files.filter((f) => f.change === 'rewritten').map((f) => f.path)).toContain(
        'sitemap-00002.xml',
      );

      const after = await get(app.origin, '/sitemap.xml');
      expect(childrenOf(after.text)).toEqual(children);
      expect(after.text).toBe(readFileSync(join(out, 'sitemap.xml'), 'utf8'));
      for (const name of children) {
        const got = await get(app.origin, `/${name}`);
        const conditional = await get(app.origin, `/${name}`, { 'if-none-match': etags.get(name)! });
        expect(xsdProblems(name, got.text)).toBe('');
        expect(got.text).toBe(readFileSync(join(out, name), 'utf8'));
        if (name === 'sitemap-00002.xml') {
          expect(got.text).not.toBe(bodies.get(name));
          expect(got.text).toContain('<lastmod>2026-01-03</lastmod>');
          expect(got.headers['etag']).not.toBe(etags.get(name));
          expect(conditional.status).toBe(200);
        } else {
          expect(got.text).toBe(bodies.get(name));
          expect(got.headers['etag']).toBe(etags.get(name));
          expect(conditional.status).toBe(304);
        }
      }
    });

    it('a read-only store refuses writes and takes no lock: a writer opens while it serves', async () => {
      const dir = tempDir('sk-store-source');
      const path = target.fresh(dir);
      const writer = await openStore(path, { baseUrl: BASE });
      await writer.add([entry(1), entry(2)]);
      await writer.close();
      const reader = await openStore(path, { readOnly: true });
      open.push(reader);
      await expect(reader.add([entry(3)])).rejects.toMatchObject({ code: 'ERR_STATE' });
      await expect(reader.stats()).rejects.toMatchObject({ code: 'ERR_STATE' });
      const app = await serveStore(reader);
      open.push(app);
      const one = await get(app.origin, '/sitemap.xml');
      expect(one.status).toBe(200);
      expect(one.text).toContain('<urlset');
      // The only file is served as sitemap.xml, as a store build publishes a one-file set.
      expect((await get(app.origin, '/sitemap-00001.xml')).status).toBe(404);
      const second = await openStore(path);
      await second.add([entry(3)]);
      await second.close();
      const two = await get(app.origin, '/sitemap.xml');
      expect(two.text).toContain(`${BASE}p/3`);
      expect(two.headers['etag']).not.toBe(one.headers['etag']);
    });
  });
}
