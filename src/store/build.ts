/**
 * A build from the store: only children whose content changed since the published build are
 * serialised again (from the stored fragments, never from the entries); an unchanged child keeps
 * its bytes on disk and its index lastmod, checked in place (size and SHA-256) and rewritten only
 * when missing or different. Then the indexes, the manifest (its files, no entry lines: see
 * docs/store.md) and the change set, published through the folder sink's atomic commit. The store
 * records the published state after the commit, in the caller's transaction: a crash before that
 * leaves the store as it was, and the next build converges (its changed children are rewritten,
 * and any kept one that differs from the record is rewritten too).
 */
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { putBundledXsl, XSL_NAME } from '../writer/bundled-xsl.js';
import { FEED_NAME } from '../writer/feed.js';
import { FileWriter } from '../writer/file-writer.js';
import { FolderSink } from '../writer/folder-sink.js';
import { loadGzip } from '../writer/gzip.js';
import { buildIndexes } from '../writer/index-builder.js';
import type { LastmodPolicy } from '../writer/lastmod-policy.js';
import { MANIFEST_NAME, MANIFEST_OPEN, type ManifestFile, manifestTailLine } from '../writer/manifest.js';
import { DEFAULT_NEWS_WINDOW_MS, resolveNewsWindow } from '../writer/news-window.js';
import { checkOwnTargets, previousFeeds } from '../writer/run-extras.js';
import { type Extension, textLine, URLSET_CLOSE, urlsetOpen, urlXml } from '../writer/serialize.js';
import type { CommitFile, CommitPlan } from '../writer/sink.js';
import type { FileRow, LayoutRow, PublishedRow, StoreBackend } from './backend.js';
import { Flushing, gateMessage, indexOrder, measured, stampOf, trusted } from './build-files.js';
import { countChanges, writeChangeSet } from './change-set.js';
import { resolveStoreFeed, type StoreFeedOptions, storeFeed } from './feed.js';
import { judgeStoreLastmods, resolveStorePolicy } from './lastmods.js';
import { type NewsDue, parseDue, StoreNewsWindow } from './news.js';
import { HEADER_RESERVE, type MaxDrop, resolveMaxDrop, type StoreSettings } from './options.js';
import { type ChildWriting, loadPending, spliceSource, writeChild } from './splice.js';
import type { BuildSpool } from './spool.js';

/** Options of a store build: where and how the set is published, and the gate. */
export interface BuildOptions {
  /** Folder the sitemaps go into (atomically, as `writeSitemaps` does). */
  outDir: string;
  /** Compress every file (`.gz`). @default false */
  gzip?: boolean;
  /** `true` copies the bundled stylesheet as `sitemap.xsl`; a string references that URL. @default false */
  xsl?: boolean | string;
  /** A robots.txt whose `Sitemap:` lines are brought up to date. */
  updateRobots?: string;
  /** Children per index file. @default 50000 */
  maxSitemapsPerIndex?: number;
  /**
   * The publish gate: a build that would remove more than this of the published URLs refuses to
   * publish (`ERR_GATE`): a share (`0.1`, `'10%'`) or a count (`{ count: 500 }`, `'500'`). @default 0.1
   */
  maxDrop?: MaxDrop | string;
  /** Publish even past the gate. @default false */
  force?: boolean;
  /** Write the change set (JSON Lines) to this file. */
  changes?: string;
  /**
   * Also publish `feed.xml`, a delta feed of the newest URLs the store saw added or changed
   * (docs/store.md says which time each URL gets). @default no feed
   */
  feed?: StoreFeedOptions;
  /**
   * News blocks published longer ago than this are dropped at build time (the URL stays), as
   * `writeSitemaps` drops them: a duration (`'2d'`, `'36h'`, milliseconds), or `false`/`0`/`'off'`.
   * @default '2d'
   */
  newsWindow?: number | string | false;
  /**
   * When 20 or more input lastmods are all one value or all within 15 minutes of the build time:
   * `warn` through `onDiagnostic`, `drop` them from the published files too, or `keep` silently.
   * @default 'warn'
   */
  lastmodPolicy?: LastmodPolicy;
  /** Receives the build's findings (the lastmod warning). */
  onDiagnostic?: DiagnosticHandler;
}

/** What happened to one file of the set. */
export interface BuiltFile {
  /** Name in the output folder. */
  path: string;
  url: string;
  kind: 'urlset' | 'text' | 'index';
  urls: number;
  /** Uncompressed bytes. */
  bytes: number;
  change: 'added' | 'rewritten' | 'kept';
  lastmod?: string;
}

export interface BuildResult {
  /** The entry point (`sitemap.xml[.gz]`). */
  entry: string;
  /** Live URLs published. */
  urls: number;
  /** URL changes published by this build. */
  added: number;
  changed: number;
  removed: number;
  /** Every file of the new set: children, then indexes. */
  files: BuiltFile[];
  /** Files of the previous set that are gone. */
  deleted: string[];
  /** The build time (UTC). */
  builtAt: string;
  /** News blocks dropped (published before the window) in the files this build wrote. */
  newsDropped: number;
  /** The delta feed, when one was asked for: `kept` when its bytes did not change. */
  feed?: { path: string; url: string; urls: number; change: 'added' | 'rewritten' | 'kept' };
}

export interface BuildContext {
  backend: StoreBackend;
  settings: StoreSettings;
  /** The store's current generation (what this build publishes). */
  gen: number;
  /** The generation of the published build. */
  published: number;
  /** URLs the published build listed. */
  publishedUrls: number;
  now: string;
  step: (name: string) => Promise<void>;
  /** The texts of a first import in the same unit, to write its files from. */
  spool?: BuildSpool | undefined;
}

function pad(n: number): string {
  return String(n).padStart(5, '0');
}

/** The writer's names: `sitemap-00001.xml`, `sitemap-SECTION-00001.xml` (plus `.gz`). */
export function childName(f: Pick<FileRow, 'section' | 'num'>, ext: string): string {
  return `sitemap-${f.section === '' ? '' : `${f.section}-`}${pad(f.num)}.${ext}`;
}

/** Builds and publishes; throws (publishing nothing) on the gate, an empty store, or a failure. */
export async function buildStore(c: BuildContext, o: BuildOptions): Promise<BuildResult> {
  const s = c.settings;
  if (typeof o.outDir !== 'string' || o.outDir === '')
    throw new SitemapkitError('ERR_OPTIONS', 'outDir is required');
  if (s.baseUrl === undefined)
    throw new SitemapkitError('ERR_OPTIONS', 'this store has no base URL yet: import into it first');
  const baseUrl = s.baseUrl;
  const limit = resolveMaxDrop(o.maxDrop);
  const feed = resolveStoreFeed(o.feed);
  const windowMs = resolveNewsWindow(o.newsWindow);
  const policy = resolveStorePolicy(o.lastmodPolicy);
  const removed = await c.backend.countRemovedSince(c.published);
  if (o.force !== true && c.publishedUrls > 0) {
    const over = 'share' in limit ? removed > limit.share * c.publishedUrls : removed > limit.count;
    if (over) {
      throw new SitemapkitError('ERR_GATE', gateMessage(removed, c.publishedUrls, limit), {
        hint: 'check the input (a broken query or an empty export?); pass --force to publish anyway, or raise --max-drop',
      });
    }
  }
  const files = (await c.backend.files()).filter((f) => f.urls > 0);
  files.sort(indexOrder);
  if (files.length === 0) {
    throw new SitemapkitError(
      'ERR_NO_URLS',
      'the store holds no URLs: an empty urlset is invalid, so the previous sitemaps stay in place',
      {
        hint: 'import URLs first (sitemapkit store add, or generate INPUT --store)',
      },
    );
  }
  const xml = s.format === 'xml';
  const gz = o.gzip === true ? '.gz' : '';
  const ext = `${xml ? 'xml' : 'txt'}${gz}`;
  const xslHref = o.xsl === true ? XSL_NAME : typeof o.xsl === 'string' && o.xsl !== '' ? o.xsl : undefined;
  const head = xml ? urlsetOpen(new Set<Extension>(s.extensions), xslHref) : '';
  const headBytes = Buffer.byteLength(head);
  const declared = new Set<Extension>(s.extensions);
  // A plain entry's text, as the import serialised it (and measured: `len`).
  const plain = (loc: string, lastmod: string | null): string =>
    xml ? urlXml(lastmod === null ? { loc } : { loc, lastmod }, declared) : textLine({ loc });
  if (headBytes + (xml ? URLSET_CLOSE.length : 0) > HEADER_RESERVE) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `the xsl URL is too long for a file header (${headBytes} bytes with it; at most ${HEADER_RESERVE})`,
    );
  }
  // What the files' bytes depend on besides their entries: a change rewrites every child.
  // (The news window's length too, when not the default: a longer one gives blocks back; and
  // whether the lastmods are dropped, so a file kept never disagrees with those written beside it.)
  const noLastmods = xml && (await judgeStoreLastmods(c.backend, policy, new Date(c.now), o.onDiagnostic));
  const signature = JSON.stringify([
    s.format,
    gz,
    xslHref ?? '',
    s.extensions,
    ...(windowMs === DEFAULT_NEWS_WINDOW_MS ? [] : [windowMs]),
    ...(noLastmods ? ['no-lastmod'] : []),
  ]);
  const allDirty = (await c.backend.getMeta('signature')) !== signature;
  const previous = new Map((await c.backend.published()).map((p) => [p.path, p]));
  const gzipper = gz === '' ? undefined : await loadGzip(6);
  const builtAt = c.now;
  const window = new StoreNewsWindow(new Date(builtAt), xml ? windowMs : 0, declared);
  const due = parseDue(await c.backend.getMeta('newsDue'));
  const nextDue: NewsDue = {};
  const single = files.length === 1;

  const sink = new FolderSink(o.outDir, { onCommitStep: (step) => c.step(`commit:${step}`) });
  const start = await sink.start();
  let changesTmp: string | undefined;
  try {
    await checkOwnTargets(start, [feed !== undefined && FEED_NAME, o.xsl === true && XSL_NAME]);
    const built: BuiltFile[] = [];
    const record: PublishedRow[] = [];
    const moves: CommitFile[] = [];
    const layouts: LayoutRow[] = [];
    // Few enough changes since a published build: touched files are spliced (splice.ts).
    const splicing = !allDirty && gz === '' && c.published > 0;
    const cw: ChildWriting = {
      backend: c.backend,
      sink,
      xml,
      head,
      headBytes,
      gzipper,
      window,
      noLastmods,
      plain,
      pending: splicing ? await loadPending(c.backend, c.published) : undefined,
      spool: c.spool,
    };
    // Files flush to disk while the next is written (recorded by position: the index's order;
    // their steps chained, in that order too).
    const flushing = new Flushing();
    let stepped = Promise.resolve();
    c.backend.idle?.();
    for (const [i, f] of files.entries()) {
      const name = single ? `sitemap.${ext}` : childName(f, ext);
      const prev = previous.get(name);
      const row = prev === undefined ? undefined : await c.backend.layouts.get(name);
      // The only child of a small site is published as sitemap.xml, the name an index had before:
      // it is always written (and still reported kept when its bytes come out the same).
      const dirty =
        allDirty ||
        single ||
        f.changed > c.published ||
        prev === undefined ||
        prev.urls !== f.urls ||
        window.crossed(due[f.id]);
      const kind = xml ? 'urlset' : 'text';
      if (!dirty && (await trusted(sink.locate(name), prev, row)) && (await sink.adopt(name))) {
        built[i] = {
          path: name,
          url: baseUrl + name,
          kind,
          urls: f.urls,
          bytes: prev.bytes,
          change: 'kept',
          lastmod: prev.lastmod,
        };
        record[i] = prev;
        layouts[i] = row ?? { path: name, file: f.id, stamp: '', data: null };
        if (due[f.id] !== undefined) nextDue[f.id] = due[f.id]!;
        moves[i] = { name, as: name, sha256: prev.sha256 };
        stepped = stepped.then(() => c.step(`build:kept:${name}`));
        await flushing.add(stepped);
        continue;
      }
      const source = dirty ? await spliceSource(cw, f, sink.locate(name), prev, row) : undefined;
      const child = await writeChild(cw, f, name, source);
      if (child.due !== undefined) nextDue[f.id] = child.due;
      const done = child.closed.then(({ layout, ...totals }) => {
        layouts[i] = { path: name, file: f.id, stamp: '', data: layout };
        const same = prev !== undefined && prev.sha256 === totals.sha256;
        const lastmod = same ? prev.lastmod : builtAt;
        built[i] = {
          path: name,
          url: baseUrl + name,
          kind,
          urls: f.urls,
          bytes: totals.bytes,
          change: same ? 'kept' : prev === undefined ? 'added' : 'rewritten',
          lastmod,
        };
        record[i] = { path: name, ...totals, urls: f.urls, lastmod };
        moves[i] = { name, as: name, sha256: totals.sha256 };
      });
      const how = child.spliced ? 'spliced' : 'written';
      stepped = Promise.all([stepped, done]).then(() => c.step(`build:${how}:${name}`));
      await flushing.add(stepped);
    }
    await flushing.all();
    await c.step('build:children-written');

    const roots: string[] = [];
    if (single) roots.push(built[0]!.path);
    else {
      const indexes = buildIndexes(
        built.map((b) => ({ name: b.path, lastmod: b.lastmod! })),
        {
          baseUrl,
          xslHref,
          maxSitemapsPerIndex: o.maxSitemapsPerIndex ?? 50_000,
          maxBytesPerFile: s.maxBytesPerFile,
          suffix: gz,
        },
      );
      const indexMoves: CommitFile[] = [];
      for (const index of indexes) {
        const disk = measured(sink.create(index.name), gzipper !== undefined);
        const w = new FileWriter(gzipper === undefined ? disk : gzipper(disk));
        const wait = w.write(index.text, index.bytes);
        if (wait !== undefined) await wait;
        const totals = await w.close();
        const prev = previous.get(index.name);
        const same = prev !== undefined && prev.sha256 === totals.sha256;
        built.push({
          path: index.name,
          url: baseUrl + index.name,
          kind: 'index',
          urls: index.urls,
          bytes: totals.bytes,
          change: same ? 'kept' : prev === undefined ? 'added' : 'rewritten',
        });
        const done = disk.done();
        record.push({
          path: index.name,
          sha256: totals.sha256,
          size: done.size,
          disk: done.disk ?? totals.sha256,
          bytes: totals.bytes,
          urls: index.urls,
          lastmod: builtAt,
        });
        indexMoves.push({ name: index.name, as: index.name, sha256: totals.sha256 });
        roots.push(index.name);
      }
      // The entry point (the first index) is published last, after every file it names.
      moves.push(...indexMoves.slice(1), indexMoves[0]!);
    }

    const extra: CommitFile[] = [];
    const extraFiles: ManifestFile[] = [];
    if (o.xsl === true) {
      const sheet = await putBundledXsl(sink, baseUrl);
      extraFiles.push(sheet.file);
      extra.push(sheet.commit);
    }
    // The URLs of the store's first published build are its initial set (see store/feed.ts).
    const firstBuild = Number((await c.backend.getMeta('firstBuild')) ?? String(c.gen));
    // A feed that lists nothing is dated to the first build, so that it too keeps its bytes.
    const firstBuildAt = (await c.backend.getMeta('firstBuildAt')) ?? builtAt;
    let feedResult: BuildResult['feed'];
    if (feed !== undefined) {
      const doc = await storeFeed(c.backend, feed, {
        baseUrl,
        emptyTime: new Date(firstBuildAt),
        firstBuild,
      });
      // Plain whatever the set's gzip: feed readers and search engines fetch feeds uncompressed.
      await sink.put(FEED_NAME, doc.data);
      const url = baseUrl + FEED_NAME;
      extraFiles.push({
        path: FEED_NAME,
        url,
        kind: 'feed',
        urls: doc.items,
        bytes: doc.data.length,
        sha256: doc.sha256,
      });
      extra.push({ name: FEED_NAME, as: FEED_NAME, sha256: doc.sha256 });
      const prev = previous.get(FEED_NAME);
      const change = prev === undefined ? 'added' : prev.sha256 === doc.sha256 ? 'kept' : 'rewritten';
      feedResult = { path: FEED_NAME, url, urls: doc.items, change };
      const size = doc.data.length;
      record.push({
        path: FEED_NAME,
        sha256: doc.sha256,
        size,
        disk: doc.sha256,
        bytes: size,
        urls: doc.items,
        lastmod: builtAt,
      });
      await c.step('build:feed-written');
    }
    const urls = files.reduce((n, f) => n + f.urls, 0);
    // The manifest lists every file (the next run's sweep relies on it) but no entries: a line per
    // URL on every build would cost an incremental build its speed. The change set says what changed.
    const manifest = new FileWriter(sink.create(MANIFEST_NAME), { hash: false });
    const recordByPath = new Map(record.map((r) => [r.path, r]));
    const tail = manifestTailLine({
      format: 'sitemapkit-manifest',
      version: 1,
      generatedAt: builtAt,
      baseUrl,
      roots,
      files: [
        ...built.map((b): ManifestFile => {
          const r = recordByPath.get(b.path)!;
          const m: ManifestFile = {
            path: b.path,
            url: b.url,
            kind: b.kind,
            urls: b.urls,
            bytes: b.bytes,
            sha256: r.sha256,
          };
          if (b.kind !== 'index' && !single) m.lastmod = b.lastmod!;
          return m;
        }),
        ...extraFiles,
      ],
      entryCount: urls,
    });
    manifest.write(MANIFEST_OPEN, MANIFEST_OPEN.length);
    manifest.write(tail, Buffer.byteLength(tail));
    await manifest.close();

    const names = new Set(built.map((b) => b.path));
    if (feedResult !== undefined) names.add(FEED_NAME);
    const deleted = [...previous.keys()].filter((p) => !names.has(p));
    const counts = { added: 0, changed: 0, removed: 0 };
    if (o.changes !== undefined) {
      changesTmp = join(dirname(o.changes), `.${basename(o.changes)}.${process.pid}.tmp`);
      await writeChangeSet(changesTmp, o.changes, c, built, deleted, baseUrl, counts);
    } else if (c.published === 0) {
      // Nothing was published yet: every live URL is new (never-published removals are deleted outright).
      counts.added = urls;
    } else await countChanges(c, counts);
    await c.step('build:changes-written');

    const plan: CommitPlan = {
      files: [...extra, ...moves, { name: MANIFEST_NAME, as: MANIFEST_NAME, sha256: '' }],
    };
    if (o.updateRobots !== undefined) {
      // The delta feed is named too, as `generate` names it; a feed no longer written is taken out.
      plan.robots = {
        path: o.updateRobots,
        add: [...roots.map((r) => baseUrl + r), ...(feedResult === undefined ? [] : [feedResult.url])],
        replace: previousFeeds(start.previous),
      };
    }
    await sink.commit(plan);
    if (changesTmp !== undefined && o.changes !== undefined) {
      await rename(changesTmp, o.changes);
      changesTmp = undefined;
    }
    await c.step('build:published');
    // The published state, in the caller's transaction: committed with it, or not at all.
    await c.backend.setPublished(record);
    // Stamped in place (a rename keeps the inode and the time): the next build trusts them. A
    // kept file's layout is written again only when its stamp moved.
    const was = layouts.map((l) => l.stamp);
    for (const l of layouts) l.stamp = await stampOf(sink.locate(l.path));
    const fresh = layouts.filter((l, i) => l.stamp !== was[i]);
    await c.backend.layouts.save(
      fresh,
      layouts.map((l) => l.path),
    );
    await c.backend.setMeta('published', String(c.gen));
    await c.backend.setMeta('publishedUrls', String(urls));
    await c.backend.setMeta('signature', signature);
    await c.backend.setMeta('firstBuild', String(firstBuild));
    await c.backend.setMeta('firstBuildAt', firstBuildAt);
    await c.backend.setMeta('newsDue', JSON.stringify(nextDue));
    const result: BuildResult = {
      entry: roots[0]!,
      urls,
      ...counts,
      files: built,
      deleted,
      builtAt,
      newsDropped: window.dropped,
    };
    if (feedResult !== undefined) result.feed = feedResult;
    await c.backend.setMeta(
      'lastBuild',
      JSON.stringify({
        at: builtAt,
        outDir: o.outDir,
        urls,
        ...counts,
        files: built.length,
        rewritten: built.filter((b) => b.change !== 'kept').length,
        deleted: deleted.length,
      }),
    );
    return result;
  } catch (error) {
    await sink.abort();
    if (changesTmp !== undefined) await rm(changesTmp, { force: true });
    throw error;
  }
}
