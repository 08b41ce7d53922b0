/**
 * A crawl's change set (src/writer/change-set.ts): the pages it added to, changed in and removed
 * from the sitemap, one JSON line each, read from the state and written through a temp file,
 * fsync and rename, so that `submit` never reads half of one.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fsError } from '../core/fs-errors.js';
import { ensureDir } from '../writer/atomic.js';
import { changeSetLine, type UrlChangeRecord } from '../writer/change-set.js';
import { crawlLastmod } from './page-outcome.js';
import { publishedLastmod } from './sitemap-entries.js';
import type { CrawlState } from './state.js';

/** Writes the change set to `path`; `publish` maps a crawled URL to its published one. Returns the lines written. */
export async function writeChangeSet(
  state: CrawlState,
  path: string,
  publish: (url: string) => string,
): Promise<number> {
  await ensureDir(dirname(path), 'create the folder of the change set');
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const doing = 'write the change set';
  const fh = await open(tmp, 'wx').catch((e: unknown) => {
    throw fsError(e, { path, doing, mode: 'write' });
  });
  let n = 0;
  try {
    let buf = '';
    for (const r of state.changes()) {
      const record: UrlChangeRecord = {
        kind: 'url',
        change: r.change as UrlChangeRecord['change'],
        loc: publish(r.url),
        at: r.changeAt ?? '',
      };
      const lastmod = r.change === 'removed' ? undefined : publishedLastmod(r);
      if (lastmod !== undefined) record.lastmod = crawlLastmod(lastmod);
      buf += changeSetLine(record);
      n++;
      if (buf.length >= 65_536) {
        await fh.write(buf);
        buf = '';
      }
    }
    await fh.write(buf);
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw fsError(e, { path, doing, mode: 'write' });
  }
  return n;
}
