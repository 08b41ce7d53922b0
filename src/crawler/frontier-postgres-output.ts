/**
 * The finish step of a shared crawl, run by the one worker that claimed it: the crawl copied from
 * PostgreSQL into a local SQLite state in a temporary folder (frontier-postgres-read.ts), then the
 * report, the sitemaps (with the HTML site map) and the change set written from it exactly as
 * crawl.ts writes a crawl of one process (atomically, through the writer).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntryInput } from '../core/entry.js';
import { type WriteSitemapsResult, writeSitemaps } from '../writer/write-sitemaps.js';
import { writeChangeSet } from './change-set-file.js';
import type { PgDb } from './frontier-postgres-db.js';
import { copyToSqlite } from './frontier-postgres-read.js';
import type { ResolvedCrawlOptions } from './options.js';
import { crawlLastmod } from './page-outcome.js';
import { namedByPage } from './publish.js';
import type { Recorder } from './recorder.js';
import type { CrawlStats } from './records.js';
import { type CrawlReportFiles, writeCrawlReport } from './report.js';
import { otherHosts, rewriteOrigin, sitemapEntries } from './sitemap-entries.js';
import { CrawlState } from './state.js';

export interface SharedOutput {
  stats: CrawlStats;
  sitemaps: WriteSitemapsResult;
  report: CrawlReportFiles | undefined;
}

/** Writes the output of the finished crawl in `db`; `run` is this worker's requests and time. */
export async function writeSharedOutput(
  o: ResolvedCrawlOptions,
  db: PgDb,
  recorder: Recorder,
  run: { requests: number; seconds: number },
): Promise<SharedOutput> {
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-shared-'));
  try {
    const path = join(dir, 'state.db');
    await copyToSqlite(db, path, { links: o.report !== undefined });
    const state = await CrawlState.open(path, 'resume');
    try {
      const c = state.counts();
      const stats: CrawlStats = {
        found: c.total,
        fetched: c.fetched,
        listed: c.listed,
        queued: c.queued,
        verdicts: Object.fromEntries(state.verdictCounts()),
        statuses: Object.fromEntries([...state.statusCounts()].map(([k, v]) => [String(k), v])),
        requests: run.requests,
        externalLinks: recorder.externalLinks,
        seconds: run.seconds,
        pagesPerSecond: run.seconds > 0 ? run.requests / run.seconds : 0,
      };
      let report: CrawlReportFiles | undefined;
      if (o.report !== undefined) {
        report = await writeCrawlReport(state, {
          dir: o.report,
          stats,
          starts: o.starts,
          complete: true,
          generatedAt: new Date(o.now()),
        });
      }
      const named = namedByPage(oneLastmodForm(adjusted(sitemapEntries(state, o), o.adjustEntry)));
      const sitemaps = await writeSitemaps(named.entries, {
        outDir: o.outDir,
        baseUrl: o.baseUrl,
        onInvalid: 'skip',
        allowHosts: otherHosts(state, o),
        ...o.sitemaps,
        onDiagnostic: (d) => recorder.report(named.name(d)),
        ...(o.signal === undefined ? {} : { signal: o.signal }),
      });
      if (o.changes !== undefined) {
        const from = o.origins[0]!;
        await writeChangeSet(state, o.changes, (u) => rewriteOrigin(u, from, o.publicOrigin));
      }
      return { stats, sitemaps, report };
    } finally {
      state.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function* adjusted(
  entries: Iterable<EntryInput>,
  adjust: ((e: EntryInput) => EntryInput) | undefined,
): Generator<EntryInput> {
  for (const e of entries) yield adjust === undefined ? e : adjust(e);
}

function* oneLastmodForm(entries: Iterable<EntryInput>): Generator<EntryInput> {
  for (const e of entries) {
    if (typeof e.lastmod === 'string') e.lastmod = crawlLastmod(e.lastmod);
    yield e;
  }
}
