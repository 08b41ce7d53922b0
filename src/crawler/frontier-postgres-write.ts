/**
 * The transaction of one batch of the PostgreSQL frontier (frontier-postgres.ts): the pages
 * finished (only those no one finished before), the URLs they found (new ones inserted, known ones
 * lowered to a smaller depth), pattern caps, the links, the progress row. Every statement is a
 * named (prepared) statement: each connection has the server parse and plan it once, then sends
 * only its parameters, where an unnamed statement has its text parsed and planned every time.
 */
import type { PoolClient } from 'pg';
import { type Admission, type Committed, emptyCommitted } from './frontier.js';
import type { KnownUrls } from './frontier-postgres-known.js';
import {
  FINISH,
  FINISH_ALL,
  INSERT,
  KNOWN,
  LINKS,
  outcomeRow,
  PATTERNS,
  TRAP,
} from './frontier-postgres-sql.js';
import { type Outcome, SEED_DEPTH, type UrlSource } from './records.js';

/** A URL found in the open batch, judged by the crawl's `admit` when it was found. */
export interface Pending {
  url: string;
  depth: number;
  source: UrlSource;
  /** The lease of the page that found it; null for start URLs and sitemap seeds. */
  via: number | null;
  admission: Exclude<Admission, { kind: 'external' }>;
}

/** A page of the batch and its outcome. */
export interface FinishedPage {
  id: number;
  url: string;
  outcome: Outcome;
}

/** A URL's id and depth as a batch's transaction found or made them. */
export interface Learned {
  url: string;
  id: number;
  depth: number;
}

/** What a batch's transaction did: its counts, the pages it recorded finished, the URLs it learnt. */
export interface Written {
  committed: Committed;
  applied: Set<number>;
  learned: Learned[];
}

export interface BatchContext {
  workerId: string;
  maxDepth: number;
  /** The URLs this worker remembers (frontier-postgres-known.ts), as of its last committed batch. */
  known: Pick<KnownUrls, 'get'>;
}

/** Runs `text` as the named statement `name` (prepared once per connection). */
async function run<R>(c: PoolClient, name: string, text: string, values: unknown[]): Promise<R[]> {
  return (await c.query({ name, text, values })).rows as R[];
}

/** A page's links: target ids by source id, each target once. */
export type PageLinks = Map<number, number[]>;

function outcomeJson(finished: readonly FinishedPage[], links?: PageLinks): string {
  // Rows in id order: concurrent workers lock the rows they finish in one order (fewer deadlocks).
  return JSON.stringify(
    [...finished]
      .sort((x, y) => x.id - y.id)
      .map((f) => {
        const row = outcomeRow(f.id, f.outcome);
        const targets = links?.get(f.id);
        if (targets !== undefined) row['links'] = targets;
        return row;
      }),
  );
}

/** Adds the link from `source` to `target` unless it is there (or links the page to itself). */
function addLink(links: PageLinks, pairs: Set<string>, source: number, target: number): void {
  const key = `${source} ${target}`;
  if (target === source || pairs.has(key)) return;
  pairs.add(key);
  const list = links.get(source);
  if (list === undefined) links.set(source, [target]);
  else list.push(target);
}

/**
 * The links of a batch whose found URLs this worker all knows no deeper than found (so that
 * nothing is inserted or lowered); undefined when any is not.
 */
export function knownLinks(
  known: BatchContext['known'],
  finished: number,
  found: readonly Pending[],
): PageLinks | undefined {
  if (finished === 0) return undefined;
  const links: PageLinks = new Map();
  const pairs = new Set<string>();
  for (const f of found) {
    const k = known.get(f.url);
    if (k === undefined || k.depth > f.depth) return undefined;
    if (f.via !== null) addLink(links, pairs, f.via, k.id);
  }
  return links;
}

/** A batch of known links: one statement, which is its own transaction. */
export async function writeKnown(
  c: PoolClient,
  ctx: BatchContext,
  finished: readonly FinishedPage[],
  links: PageLinks,
): Promise<Written> {
  const rows = await run<{ id: number }>(c, 'sk_finish_all', FINISH_ALL, [
    outcomeJson(finished, links),
    ctx.workerId,
  ]);
  return { committed: emptyCommitted(), applied: new Set(rows.map((x) => x.id)), learned: [] };
}

/** Any batch, in the caller's transaction. */
export async function writeBatch(
  c: PoolClient,
  ctx: BatchContext,
  finished: readonly FinishedPage[],
  found: readonly Pending[],
): Promise<Written> {
  const me = ctx.workerId;
  const b = emptyCommitted();
  const learned: Learned[] = [];
  let applied = new Set<number>();
  let fetched = 0;
  if (finished.length > 0) {
    const r = await run<{ id: number; attempts: number }>(c, 'sk_finish', FINISH, [
      outcomeJson(finished),
      me,
    ]);
    applied = new Set(r.map((x) => x.id));
    for (const x of r) if (x.attempts > 0) fetched++;
  }
  // A page someone else recorded first: its links were recorded with it.
  const live = found.filter((f) => f.via === null || applied.has(f.via));
  // One row per URL, at its smallest depth (the admission that depth got).
  const byUrl = new Map<string, Pending>();
  for (const f of live) {
    const seen = byUrl.get(f.url);
    if (seen === undefined || f.depth < seen.depth) byUrl.set(f.url, f);
  }
  // Remembered no deeper than found again: nothing to insert or lower, only its id for the links.
  const ids = new Map<string, number>();
  const unique: Pending[] = [];
  for (const f of byUrl.values()) {
    const k = ctx.known.get(f.url);
    if (k !== undefined && k.depth <= f.depth) ids.set(f.url, k.id);
    else unique.push(f);
  }
  if (unique.length > 0) {
    const rows = unique.map((f, ord) => {
      const out = f.admission.kind === 'finished' ? f.admission.outcome : undefined;
      return {
        ord,
        url: f.url,
        depth: f.depth,
        via: f.via,
        source: f.source,
        verdict: out?.verdict ?? null,
        reason: out?.reason ?? null,
      };
    });
    const inserted = await run<{ id: number; url: string }>(c, 'sk_insert', INSERT, [
      JSON.stringify(rows),
      me,
    ]);
    const fresh = new Set<string>();
    for (const r of inserted) {
      ids.set(r.url, r.id);
      fresh.add(r.url);
    }
    const capped = new Map<string, Array<{ id: number; url: string; max: number; reason: string }>>();
    for (const f of unique) {
      const id = ids.get(f.url);
      if (id === undefined) continue;
      learned.push({ url: f.url, id, depth: f.depth });
      if (f.admission.kind === 'finished') {
        b.finished++;
        continue;
      }
      const cap = f.admission.cap;
      if (cap === undefined) {
        b.queued++;
        continue;
      }
      let list = capped.get(cap.key);
      if (list === undefined) {
        list = [];
        capped.set(cap.key, list);
      }
      list.push({ id, url: f.url, max: cap.max, reason: cap.over.reason ?? 'trap' });
    }
    if (capped.size > 0) await caps(c, me, capped, b);
    const known = unique.filter((f) => !fresh.has(f.url)).map((f) => ({ url: f.url, depth: f.depth }));
    if (known.length > 0) {
      const r = await run<{
        id: number;
        url: string;
        was_depth: number;
        was_state: number;
        nd: number;
        lowered: boolean;
      }>(c, 'sk_known', KNOWN, [JSON.stringify(known), Math.min(ctx.maxDepth, 2 ** 31 - 1)]);
      for (const x of r) {
        ids.set(x.url, x.id);
        learned.push({ url: x.url, id: x.id, depth: x.lowered ? x.nd : x.was_depth });
        if (!x.lowered) continue;
        if (x.was_state === 2) b.requeued++;
        else if (x.was_depth >= SEED_DEPTH) b.promoted++;
      }
    }
  }
  const links: PageLinks = new Map();
  const pairs = new Set<string>();
  for (const f of live) {
    if (f.via === null) continue;
    const id = ids.get(f.url);
    if (id !== undefined) addLink(links, pairs, f.via, id);
  }
  if (links.size > 0 || applied.size > 0) {
    const rows = [...links].map(([source, targets]) => ({ source, targets }));
    await run(c, 'sk_links', LINKS, [JSON.stringify(rows), me, fetched, applied.size - fetched]);
  }
  return { committed: b, applied, learned };
}

/** Counts new URLs against their pattern caps; those over a cap are finished as traps. */
async function caps(
  c: PoolClient,
  me: string,
  capped: Map<string, Array<{ id: number; url: string; max: number; reason: string }>>,
  b: Committed,
): Promise<void> {
  const add = [...capped].map(([key, list]) => ({ key, n: list.length }));
  const r = await run<{ key: string; n: number }>(c, 'sk_patterns', PATTERNS, [JSON.stringify(add)]);
  const traps: Array<{ id: number; reason: string }> = [];
  for (const { key, n } of r) {
    const list = capped.get(key)!;
    // The counts before this batch's URLs of the pattern, then one more per URL, in discovery order.
    let count = n - list.length;
    for (const x of list) {
      count++;
      if (count > x.max) {
        traps.push({ id: x.id, reason: x.reason });
        b.trapped.push({ key, url: x.url });
        b.finished++;
      } else {
        b.queued++;
      }
    }
  }
  if (traps.length > 0) await run(c, 'sk_trap', TRAP, [JSON.stringify(traps), me]);
}
