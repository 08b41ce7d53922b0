import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { BASE, clock, publishedUrls, urls } from './helpers.js';
import { storeSuite } from './store-suite.js';
import { sqliteTarget } from './targets.js';

storeSuite(sqliteTarget);

describe('a store file written before layouts were kept', () => {
  it('opens, writes its touched files in full once, and splices from then on', async () => {
    const dir = tempDir('sk-store');
    const path = join(dir, 'site.db');
    const out = join(dir, 'out');
    const c = clock();
    const steps: string[] = [];
    const options = {
      baseUrl: BASE,
      maxUrlsPerFile: 10,
      now: c.now,
      onStep: (x: string) => void steps.push(x),
    };
    let s = await openStore(path, options);
    await s.sync(urls(0, 20));
    await s.build({ outDir: out });
    await s.close();
    const db = new Database(path);
    db.exec('DROP TABLE layouts');
    db.close();
    for (const round of [1, 2]) {
      s = await openStore(path, options);
      c.tick();
      steps.length = 0;
      await s.add([{ ...urls(round, 1)[0]!, priority: 0.5 }]);
      await s.build({ outDir: out });
      await s.close();
      expect(steps.filter((x) => /^build:(written|spliced):/.test(x))).toEqual([
        round === 1 ? 'build:written:sitemap-00001.xml' : 'build:spliced:sitemap-00001.xml',
      ]);
    }
    expect(publishedUrls(out).sort()).toEqual(urls(0, 20).map((u) => u.loc));
  });
});
