/**
 * The end of a run: build-wide checks (hreflang reciprocity), the indexes, the supporting files,
 * the manifest's last line, and the commit plan handed to the sink.
 */
import { SitemapkitError } from '../core/errors.js';
import { formatUtc } from '../core/lastmod.js';
import { putBundledXsl } from './bundled-xsl.js';
import { FEED_NAME } from './feed.js';
import { FileWriter } from './file-writer.js';
import type { HtmlPagesResult } from './html-pages.js';
import { buildIndexes } from './index-builder.js';
import { finalManifest } from './lastmod-drop.js';
import { MANIFEST_NAME, type ManifestFile, type ManifestHeader, manifestTailLine } from './manifest.js';
import type { Run } from './run.js';
import { checkOwnTargets, judgeValues, previousFeeds, writeFeed } from './run-extras.js';
import type { CommitFile, CommitPlan, SinkStart } from './sink.js';

/** One file of the written set. */
export interface WrittenFile {
  /** Absolute path for a folder; the file's name in the set for other outputs. */
  path: string;
  /** Public URL. */
  url: string;
  kind: ManifestFile['kind'];
  /** URLs it lists (children, for an index). */
  urls: number;
  /** Uncompressed bytes. */
  bytes: number;
}

export interface Finished {
  /** Manifest files of the sitemaps (children, indexes; or the entry point alone). */
  files: ManifestFile[];
  /** Stylesheet and HTML pages. */
  extraFiles: ManifestFile[];
  roots: string[];
}

/** Judges what spans records; throws when the run must not be published. */
export function judge(run: Run): void {
  const o = run.o;
  const f = run.findings;
  if (o.onInvalid === 'fail' && run.hreflang.size > 0 && f.writing) {
    // Reciprocity spans records, so it is judged once all are in. Under skip and drop-field the
    // pages of a broken group were held back and written without their alternates (Run.release).
    for (const p of run.reciprocity()) {
      f.report({
        code: 'hreflang-not-reciprocal',
        severity: 'error',
        message: p.message,
        url: p.url,
        field: 'alternates',
      });
      f.invalid++;
      f.firstProblem ??= `${p.url} (alternates): ${p.message}`;
    }
  }
  if (o.onInvalid === 'fail' && f.invalid > 0) {
    throw new SitemapkitError(
      'ERR_INVALID_ENTRY',
      `${f.invalid.toLocaleString('en-US')} record${f.invalid === 1 ? ' is' : 's are'} invalid, so nothing was written (the previous sitemaps are untouched). First: ${f.firstProblem}`,
      { hint: 'Fix the records, or pass --on-invalid skip to leave them out.' },
    );
  }
  if (run.urls === 0) {
    throw new SitemapkitError(
      'ERR_NO_URLS',
      `no URLs to write (${run.records} record${run.records === 1 ? '' : 's'} read, ${f.skipped} skipped): an empty urlset is invalid, so the previous sitemaps stay in place`,
    );
  }
}

/** Writes the indexes, supporting files and the manifest's tail, then commits the set. */
export async function finish(run: Run, start: SinkStart): Promise<Finished> {
  const o = run.o;
  const sink = run.sink;
  const judged = await judgeValues(run, await run.closeAll());
  const children = judged.children;
  const buildTime = formatUtc(o.buildTime);
  const previous = start.previous;
  const prevFiles = new Map((previous?.files ?? []).map((f) => [f.path, f]));
  const kind: ManifestFile['kind'] = run.ext === 'txt' ? 'text' : 'urlset';
  const files: ManifestFile[] = [];
  // Publishing order: children and extra indexes, then the entry point.
  const moves: CommitFile[] = [];
  const roots: string[] = [];

  if (children.length === 1 && !o.alwaysIndex) {
    const c = children[0]!;
    const entryName = `${o.indexName}.${run.ext}${run.gz}`;
    // A sink that cannot rename got the only child held back: it is created under its public name now.
    if (run.first !== undefined) await run.first.file.bind(entryName);
    const created = run.first !== undefined ? entryName : (c.created ?? c.name);
    files.push({
      path: entryName,
      url: o.baseUrl + entryName,
      kind,
      urls: c.urls,
      bytes: c.bytes,
      sha256: c.sha256,
    });
    roots.push(entryName);
    moves.push({ name: created, as: entryName, sha256: c.sha256 });
  } else {
    const listed = children.map((c) => {
      const old = prevFiles.get(c.name);
      const lastmod =
        old !== undefined && old.sha256 === c.sha256 && old.lastmod !== undefined ? old.lastmod : buildTime;
      files.push({
        path: c.name,
        url: o.baseUrl + c.name,
        kind,
        urls: c.urls,
        bytes: c.bytes,
        sha256: c.sha256,
        lastmod,
      });
      moves.push({ name: c.created ?? c.name, as: c.name, sha256: c.sha256 });
      return { name: c.name, lastmod };
    });
    const indexes = buildIndexes(listed, {
      baseUrl: o.baseUrl,
      xslHref: run.xslHref,
      maxSitemapsPerIndex: o.maxSitemapsPerIndex,
      maxBytesPerFile: o.maxBytesPerFile,
      suffix: run.gz,
      indexName: o.indexName,
    });
    checkUnique(children, indexes, o.indexName);
    const gzip = run.gzipper;
    for (const index of indexes) {
      const target = sink.create(index.name);
      const w = new FileWriter(gzip === undefined ? target : gzip(target));
      const wait = w.write(index.text, index.bytes);
      if (wait !== undefined) await wait;
      const r = await w.close();
      files.push({
        path: index.name,
        url: o.baseUrl + index.name,
        kind: 'index',
        urls: index.urls,
        bytes: r.bytes,
        sha256: r.sha256,
      });
      roots.push(index.name);
      moves.push({ name: index.name, as: index.name, sha256: r.sha256 });
    }
    // The entry point (the first index) is published last.
    const entry = moves.splice(children.length, 1)[0]!;
    moves.push(entry);
  }

  const extra: CommitFile[] = [];
  const extraFiles: ManifestFile[] = [];
  if (o.xsl !== false && 'bundled' in o.xsl) {
    const sheet = await putBundledXsl(sink, o.baseUrl);
    extraFiles.push(sheet.file);
    extra.push(sheet.commit);
  }
  const feed = await writeFeed(run);
  if (feed !== undefined) {
    extraFiles.push(feed.file);
    extra.push(feed.commit);
  }
  let html: HtmlPagesResult = [];
  if (run.html !== undefined) html = await run.html.finish();
  for (const f of html) {
    extraFiles.push({
      path: f.path,
      url: f.url,
      kind: 'html',
      urls: f.links,
      bytes: f.bytes,
      sha256: f.sha256,
    });
    extra.push({ name: f.path, as: f.path, sha256: f.sha256 });
  }

  await checkOwnTargets(
    start,
    extra.map((e) => e.as),
  );

  const plan: CommitPlan = { files: [...extra, ...moves] };
  if (run.manifest !== undefined) {
    // The entry lines were written during the run; the last line carries the rest.
    const header: ManifestHeader = {
      format: 'sitemapkit-manifest',
      version: 1,
      generatedAt: buildTime,
      baseUrl: o.baseUrl,
      roots,
      files: [...files, ...extraFiles],
      entryCount: run.urls,
    };
    const tail = manifestTailLine(header);
    run.manifest.write(tail, Buffer.byteLength(tail));
    await run.manifest.close();
    // Under lastmodPolicy 'drop' the entry lines carry a second hash, settled here.
    const name = o.lastmodPolicy === 'drop' ? await finalManifest(run, judged.dropped) : MANIFEST_NAME;
    plan.files.push({ name, as: MANIFEST_NAME, sha256: '' });
  }
  if (o.updateRobots !== undefined) {
    const oldRoots = (previous?.roots ?? []).map((r) => (previous?.baseUrl ?? o.baseUrl) + r);
    plan.robots = {
      path: o.updateRobots,
      // The delta feed is named too: search engines read RSS and Atom feeds as sitemaps.
      add: [...roots.map((r) => o.baseUrl + r), ...(feed === undefined ? [] : [feed.file.url!])],
      replace: [...new Set([...oldRoots, ...previousFeeds(previous), ...start.staleRoots])],
    };
  }
  await sink.commit(plan);
  return { files, extraFiles, roots };
}

/**
 * Chosen names (`names`) could give two files of the set one name, or a child the feed's: refused
 * before anything is published, since the second file would replace the first.
 */
function checkUnique(
  children: readonly { name: string }[],
  indexes: readonly { name: string }[],
  indexName: string,
): void {
  const seen = new Set<string>([FEED_NAME]);
  for (const f of [...children, ...indexes]) {
    if (seen.has(f.name)) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `two files of the set would be named ${f.name} (the entry point is ${indexName}): choose names (names.index, names.child) that no other file has`,
      );
    }
    seen.add(f.name);
  }
}
