/**
 * Where a crawl starts: the start URLs, written once into a new state (a state belongs to one set
 * of start URLs: resuming it with others is refused), and with `seedSitemaps` the URLs of the
 * site's sitemaps, read once per state (`--resume` does not read them again; `--fresh` empties the
 * state when it is opened, so they are read as they are now). Seeds wait at a depth after every
 * link-found URL, so a seed a page links to takes its link depth.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import type { HttpClient } from '../http/client.js';
import { discoverSitemaps } from '../parser/discover.js';
import { parseSitemapTree } from '../parser/tree.js';
import type { Admit, Committed, Found, Frontier } from './frontier.js';
import { SEED_DEPTH } from './records.js';

/** Sitemap URLs recorded per commit while seeding. */
const SEED_BATCH = 1000;

export interface SeedContext {
  frontier: Frontier;
  starts: readonly string[];
  now: () => number;
  /** What a new start URL becomes, and what a new sitemap URL becomes. */
  admitStart: Admit;
  admit: Admit;
  /** The crawler's normalisation of a URL read from a sitemap. */
  normalize: (raw: string, base: string) => string | undefined;
  committed: (c: Committed) => void;
}

/** Throws `ERR_STATE` when the state belongs to other start URLs; queues the start URLs in a new one. */
export async function seedStarts(c: SeedContext): Promise<void> {
  const f = c.frontier;
  const startsJson = JSON.stringify(c.starts);
  const previous = await f.getMeta('start');
  if (previous !== undefined && previous !== startsJson) {
    throw new SitemapkitError(
      'ERR_STATE',
      `this state belongs to a crawl of ${(JSON.parse(previous) as string[]).join(', ')}`,
      {
        where: f.where,
        hint: 'resume with the same start URLs, or pass --fresh (or --state FILE) for a new crawl',
      },
    );
  }
  if (previous !== undefined) return;
  await f.setMeta('start', startsJson);
  await f.setMeta('created', new Date(c.now()).toISOString());
  f.add(
    c.starts.map((url) => ({ url, depth: 0, source: 'start' as const })),
    c.admitStart,
  );
  await f.commit();
}

export interface SitemapSeedOptions {
  origins: readonly string[];
  /** The crawl's client: its pool, address policy and headers. */
  httpClient: HttpClient;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  report: (d: Diagnostic) => void;
  /** The sitemaps' URLs, already read (the audit's): queued instead of reading the sitemaps. */
  urls: readonly string[] | undefined;
}

/** Queues the URLs of each origin's sitemaps, once per state. */
export async function seedSitemaps(c: SeedContext, o: SitemapSeedOptions): Promise<void> {
  if ((await c.frontier.getMeta('seeded')) !== undefined) return;
  if (o.urls !== undefined) {
    for (let i = 0; i < o.urls.length; i += SEED_BATCH) {
      const batch: Found[] = [];
      for (const raw of o.urls.slice(i, i + SEED_BATCH)) {
        const url = c.normalize(raw, raw);
        if (url !== undefined) batch.push({ url, depth: SEED_DEPTH, source: 'sitemap' });
      }
      c.frontier.add(batch, c.admit);
      c.committed(await c.frontier.commit());
    }
    await c.frontier.setMeta('seeded', 'yes');
    return;
  }
  for (const origin of o.origins) {
    const common = {
      httpClient: o.httpClient,
      timeoutMs: o.timeoutMs,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
    };
    const found = await discoverSitemaps(`${origin}/`, common);
    if (found.length === 0) continue;
    const tree = parseSitemapTree(
      found.map((f) => f.url),
      {
        ...common,
        crossSubmit: false,
        // The crawl is CPU-bound on its own and promises a flat peak: parse workers would take CPU
        // from it and add their heaps.
        threads: 0,
        // A broken sitemap does not stop the crawl: its errors are warnings here.
        onDiagnostic: (d) => o.report({ ...d, severity: d.severity === 'error' ? 'warning' : d.severity }),
      },
    );
    let batch: Found[] = [];
    const flush = async (): Promise<void> => {
      c.frontier.add(batch, c.admit);
      batch = [];
      c.committed(await c.frontier.commit());
    };
    for await (const entry of tree) {
      const url = c.normalize(entry.loc, entry.loc);
      if (url !== undefined) batch.push({ url, depth: SEED_DEPTH, source: 'sitemap' });
      if (batch.length >= SEED_BATCH) await flush();
    }
    await flush();
  }
  await c.frontier.setMeta('seeded', 'yes');
}
