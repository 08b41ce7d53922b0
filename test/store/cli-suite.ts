import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Engine, startEngine } from '../submit/indexnow-server.js';
import { cli, runBin } from '../support/cli.js';
import { startServer, type TestServer, text } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import type { StoreTarget } from './targets.js';

/** The store's command line, run over each backend (cli.test.ts, cli-pg.test.ts). */
export function cliSuite(target: StoreTarget): void {
  const KEY = '0123456789abcdef0123456789abcdef';
  let engine: Engine;
  let site: TestServer;
  beforeAll(async () => {
    engine = await startEngine();
    site = await startServer({}, { keepAlive: false });
    site.route(`/${KEY}.txt`, text(KEY));
  });
  afterAll(async () => {
    await Promise.all([engine.close(), site.close()]);
  });

  describe('sitemapkit generate --store and sitemapkit store', () => {
    it('syncs, builds, adds, removes, lists, reports, refuses a large drop, and submits the change set', async () => {
      const dir = tempDir('sk-store-cli');
      const base = `${site.origin}/`;
      const db = target.fresh(dir);
      const out = join(dir, 'out');
      const input = join(dir, 'urls.txt');
      writeFileSync(input, Array.from({ length: 30 }, (_, i) => `${base}p/${i}`).join('\n'));
      const first = await runBin([
        'generate',
        input,
        '--base-url',
        base,
        '--out',
        out,
        '--store',
        db,
        '--max-urls',
        '10',
        '--changes',
        join(dir, 'c1.jsonl'),
      ]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(
        /^Published 30 URLs in 4 files to .* in [\d.]+ s\n {2}URLs: 30 added, 0 changed, 0 removed\n {2}files: 4 added, 0 rewritten, 0 kept, 0 deleted/,
      );
      const c1 = readFileSync(join(dir, 'c1.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; change: string });
      expect(c1.filter((l) => l.kind === 'url' && l.change === 'added')).toHaveLength(30);

      // A CMS hook: add one page (argument), one from standard input, remove one.
      expect((await cli(['store', 'add', `${base}new`, '--store', db])).code).toBe(0);
      const piped = await cli(['store', 'add', '--store', db], `${base}piped\n`);
      expect(piped.stdout).toMatch(/^Added 1 record into .*: 1 added, 0 changed, 0 removed, 0 unchanged/);
      expect((await cli(['store', 'remove', `${base}p/4`, '--store', db])).stdout).toMatch(
        /^Removed 1 URL from /,
      );
      const list = await cli(['store', 'list', '--store', db]);
      expect(list.stdout.trim().split('\n')).toHaveLength(31);
      expect((await cli(['store', 'list', '--removed', '--json', '--store', db])).stdout).toContain(
        `"loc":"${base}p/4"`,
      );
      const stats = await cli(['store', 'stats', '--store', db]);
      expect(stats.stdout).toMatch(/31 live URLs in 4 files, 1 removed/);
      expect(stats.stdout).toMatch(/not yet published: 2 added, 0 changed, 1 removed/);

      // Build from the store alone: only the files that changed.
      const changes = join(dir, 'c2.jsonl');
      const second = await cli([
        'generate',
        '--store',
        db,
        '--base-url',
        base,
        '--out',
        out,
        '--changes',
        changes,
        '--feed',
        'rss',
        '--feed-size',
        '5',
      ]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toMatch(
        /URLs: 2 added, 0 changed, 1 removed\n {2}files: 1 added, 2 rewritten, 2 kept, 0 deleted\n {2}entry point: sitemap.xml\n {2}delta feed: feed.xml \(2 URLs, added\)/,
      );
      // The delta feed: the two URLs added after the first build (the initial 30 had no time to give).
      const feed = readFileSync(join(out, 'feed.xml'), 'utf8');
      expect(
        [...feed.matchAll(/<link>([^<]*)<\/link>/g)]
          .map((m) => m[1])
          .slice(1)
          .sort(),
      ).toEqual([`${base}new`, `${base}piped`].sort());

      // submit --changes: the added and the removed URLs go to IndexNow.
      const sub = await cli([
        'submit',
        '--indexnow',
        `${engine.origin}/indexnow`,
        '--key',
        KEY,
        '--changes',
        changes,
      ]);
      expect(sub.code, sub.stderr).toBe(0);
      expect(engine.posts.flatMap((p) => p.urlList).sort()).toEqual(
        [`${base}new`, `${base}p/4`, `${base}piped`].sort(),
      );
      expect(sub.stderr).toMatch(/change set .*: 2 added, 0 changed, 1 removed/);

      // The gate: an export that lost most URLs publishes nothing and exits 1.
      writeFileSync(input, `${base}p/1\n`);
      const before = readFileSync(join(out, 'sitemap.xml'));
      const gate = await runBin(['generate', input, '--base-url', base, '--out', out, '--store', db]);
      expect(gate.code).toBe(1);
      expect(gate.stderr).toMatch(
        /this build would remove 30 of the 31 published URLs \(96\.8%\), more than the 10% allowed, so nothing was published and the store is as it was \[ERR_GATE\]\n {2}.*pass --force/,
      );
      expect(readFileSync(join(out, 'sitemap.xml')).equals(before)).toBe(true);
      expect((await cli(['store', 'stats', '--store', db, '--json'])).stdout).toMatch(/"live": 31/);
      const forced = await cli([
        'generate',
        input,
        '--base-url',
        base,
        '--out',
        out,
        '--store',
        db,
        '--max-drop',
        '100%',
      ]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stdout).toMatch(/^Published 1 URL in 1 file/);
    }, 60_000);

    it('usage errors: --changes without --store, a bad --max-drop, a bad change-set line names the file and line', async () => {
      const dir = tempDir('sk-store-cli');
      const r = await cli([
        'generate',
        'x.txt',
        '--base-url',
        'https://example.com/',
        '--out',
        dir,
        '--changes',
        'c.jsonl',
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--changes needs --store FILE');
      const m = await cli([
        'generate',
        '--store',
        target.fresh(dir),
        '--base-url',
        'https://example.com/',
        '--out',
        dir,
        '--max-drop',
        'lots',
      ]);
      expect(m.code).toBe(2);
      expect(m.stderr).toContain('--max-drop needs a share such as 10% or a count such as 500, not "lots"');
      const orphan = await cli([
        'generate',
        '--store',
        target.fresh(dir),
        '--base-url',
        'https://example.com/',
        '--out',
        dir,
        '--feed-size',
        '5',
      ]);
      expect(orphan.code).toBe(2);
      expect(orphan.stderr).toContain('--feed-size needs --feed atom|rss');
      const bad = join(dir, 'bad.jsonl');
      writeFileSync(
        bad,
        '{"kind":"url","change":"added","loc":"https://example.com/a","at":"x"}\nnot json\n',
      );
      const s = await cli([
        'submit',
        '--indexnow',
        `${engine.origin}/indexnow`,
        '--key',
        KEY,
        '--changes',
        bad,
      ]);
      expect(s.code).toBe(2);
      expect(s.stderr).toContain(`${bad}:2: line 2 of the change set is not JSON`);
      const empty = await cli([
        'generate',
        '--store',
        target.fresh(dir),
        '--base-url',
        'https://example.com/',
        '--out',
        join(dir, 'o'),
      ]);
      // A store file that is not there is refused before it is made; a new schema holds no URLs.
      if (target.name === 'SQLite') {
        expect(empty.code).toBe(2);
        expect(empty.stderr).toContain('there is no site store at');
      } else {
        expect(empty.code).toBe(1);
        expect(empty.stderr).toContain('the store holds no URLs');
      }
      expect(existsSync(join(dir, 'o', 'sitemap.xml'))).toBe(false);
      // A change set in a missing folder: one sentence naming it, nothing published.
      writeFileSync(join(dir, 'u.txt'), 'https://example.com/a\n');
      const lost = await cli([
        'generate',
        join(dir, 'u.txt'),
        '--base-url',
        'https://example.com/',
        '--out',
        join(dir, 'o2'),
        '--store',
        target.fresh(dir),
        '--changes',
        join(dir, 'nowhere', 'c.jsonl'),
      ]);
      expect(lost.code).toBe(2);
      expect(lost.stderr).toMatch(/nowhere\/c\.jsonl: cannot write the change set: .* \[ERR_OUTPUT\]/);
      expect(existsSync(join(dir, 'o2', 'sitemap.xml'))).toBe(false);
      for (const sub of ['add', 'remove', 'import', 'list', 'stats']) {
        const h = await cli(['store', sub, '--help']);
        expect(h.code, sub).toBe(0);
      }
    });
  });
}
