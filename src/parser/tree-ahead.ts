/**
 * One sitemap of a tree started before its turn: opened (fetched) at once, and read in this
 * thread ({@link readAheadLocally}) or in a parse worker ({@link readInWorker}), its output kept
 * until the walk reaches it. The worker is asked for when the document is started, so workers go
 * to documents in the walk's order.
 */
import type { DocumentPlace } from './document.js';
import type { ResolvedParseOptions } from './options.js';
import { type OpenedSource, openSource } from './source.js';
import { type ParsePool, readInWorker } from './tree-pool.js';
import { type CrossSubmits, type DocSource, readAheadLocally } from './tree-record.js';
import type { DocTask, TreeLineFormat } from './tree-wire.js';

export class Ahead {
  /** The source, opened as {@link openSource} opens it (and failing as it fails). */
  readonly opened: Promise<OpenedSource>;
  #source: DocSource | undefined;
  #stopped = false;

  constructor(
    url: string,
    o: ResolvedParseOptions,
    place: DocumentPlace,
    crossSubmits: CrossSubmits,
    pool: ParsePool | undefined,
    lines?: TreeLineFormat,
  ) {
    const ticket = pool?.request();
    // A worker asked for but not used goes back to the pool.
    const giveBack = (): void => {
      if (pool !== undefined && ticket !== undefined && !ticket.withdraw())
        void ticket.granted.then((w) => pool.release(w));
    };
    this.opened = openSource(url, o.http);
    this.opened.then((opened) => {
      if (this.#stopped) {
        giveBack();
        opened.cancel();
        return;
      }
      this.#source =
        pool === undefined || ticket === undefined
          ? readAheadLocally(opened, o, crossSubmits, place)
          : readInWorker(pool, ticket, opened, taskOf(url, opened, o, place, lines), crossSubmits);
    }, giveBack);
  }

  /** The document's read, once `opened` has resolved. */
  get source(): DocSource {
    return this.#source!;
  }

  /** Stops the read (or the open, when it comes). */
  stop(): void {
    this.#stopped = true;
    this.#source?.stop();
  }
}

function taskOf(
  url: string,
  opened: OpenedSource,
  o: ResolvedParseOptions,
  place: DocumentPlace,
  lines: TreeLineFormat | undefined,
): DocTask {
  const task: DocTask = {
    name: opened.name,
    redirects: opened.redirects,
    fetched: opened.fetched,
    sitemapUrl: o.sitemapUrl,
    allowHosts: o.allowHosts,
    crossSubmit: o.crossSubmit,
    maxBytes: o.maxBytes,
    maxDownloadBytes: o.maxDownloadBytes,
    maxElementDepth: o.maxElementDepth,
    rawUrls: o.rawUrls,
    positions: o.onItem !== undefined,
  };
  // Positions are for onItem's items, which lines do not have.
  if (lines !== undefined && o.onItem === undefined)
    task.lines = { module: lines.module, name: lines.name, sitemapJson: JSON.stringify(url) };
  if (opened.requested !== undefined) task.requested = opened.requested;
  if (opened.url !== undefined) task.url = opened.url;
  if (place.parent !== undefined) task.parent = place.parent;
  if (place.depth !== undefined) task.depth = place.depth;
  return task;
}
