/**
 * Where a crawl's URLs are published, checked before the first request: the start URLs, as
 * `publicOrigin` rewrites them, must be able to lie under the folder of `baseUrl` (the location
 * rule of sitemaps.org), or every page would be fetched only to be refused by the writer. And the
 * writer's findings, which number records, named by the page they are about.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { EntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { locationPrefix } from '../core/url.js';
import type { ResolvedCrawlOptions } from './options.js';
import { rewriteOrigin } from './sitemap-entries.js';

type Publication = Pick<
  ResolvedCrawlOptions,
  'starts' | 'origins' | 'publicOrigin' | 'baseUrl' | 'hosts' | 'subdomains'
>;

/** A start URL as the sitemap would list it. */
export function publishedUrl(o: Pick<Publication, 'origins' | 'publicOrigin'>, url: string): string {
  return rewriteOrigin(url, o.origins[0]!, o.publicOrigin);
}

/**
 * Throws `ERR_OPTIONS` when a start URL, as published, cannot lie under `baseUrl`'s folder. In a
 * crawl of one host every start URL must; with more hosts, those on the sitemap's own host must
 * (the others are listed by cross-submission, which the writer checks).
 */
export function checkPublication(o: Publication): void {
  const prefix = locationPrefix(o.baseUrl, 'dir');
  const ownHost = new URL(prefix).host;
  const oneHost = o.hosts.length === 0 && !o.subdomains && o.origins.length === 1;
  for (const start of o.starts) {
    const published = publishedUrl(o, start);
    if (published.startsWith(prefix)) continue;
    if (!oneHost && new URL(published).host !== ownHost) continue;
    const root = publishedUrl(o, `${o.origins[0]!}/`);
    const moved = published === start ? '' : ` is published as ${published}, which`;
    const holder = `a baseUrl that holds the crawled pages, such as "${root}"`;
    const fixes =
      o.publicOrigin === undefined && new URL(start).host === ownHost
        ? [`pass ${holder}`, `or start the crawl under ${prefix}`]
        : [
            `pass publicOrigin "${prefix}" to publish the crawled site (${o.origins[0]!}/) at that folder`,
            `or ${holder}`,
          ];
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `nothing was fetched: the start URL ${start}${moved} lies outside baseUrl's folder ${prefix}, and a sitemap there may only list URLs under it`,
      {
        hint: `${fixes.join(', ')}; a crawl that already finished needs no new fetch: run it again with \`resume: true\` and the corrected options to rewrite its output`,
      },
    );
  }
}

/** Records remembered for naming the writer's findings: the writer reports a record soon after reading it. */
const REMEMBERED = 4096;

/**
 * Wraps the entries handed to the writer so that its findings name the page (`url`) instead of
 * a record number, which means nothing to someone who never wrote the records.
 */
export function namedByPage(entries: Iterable<EntryInput>): {
  entries: Iterable<EntryInput>;
  name: (d: Diagnostic) => Diagnostic;
} {
  const locs = new Map<number, string>();
  let n = 0;
  function* track(): Generator<EntryInput> {
    for (const e of entries) {
      n++;
      locs.set(n, e.loc);
      if (locs.size > REMEMBERED) locs.delete(n - REMEMBERED);
      yield e;
    }
  }
  const name = (d: Diagnostic): Diagnostic => {
    if (d.record === undefined) return d;
    const url = d.url ?? locs.get(d.record);
    if (url === undefined) return d;
    const { record: _record, ...rest } = d;
    return { ...rest, url };
  };
  return { entries: track(), name };
}
