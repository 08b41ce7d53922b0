/**
 * The manifest's change hash of an entry: everything but its loc (the manifest keys on the loc),
 * so that `submit --since` can tell which URLs changed between builds.
 */
import type { SitemapEntry } from '../core/entry.js';
import { hashHex } from '../core/hash.js';
import { EXTENSION_NS, type Extension, hasExtensions, textLine, urlXml } from './serialize.js';

const ALL_EXTENSIONS: ReadonlySet<Extension> = new Set(Object.keys(EXTENSION_NS) as Extension[]);

// Sites repeat the same few lastmod/changefreq/priority combinations across millions of URLs, so
// the hash of each combination is remembered (a bounded cache: it is dropped when it grows large).
// The bound is small: with a timestamp per row, as databases keep them, nearly every lastmod is new,
// and 50,000 combinations of nested maps cost about 95 MiB of peak RSS at 1,000,000 URLs.
let plainHashes = new Map<string, Map<string, Map<number, string>>>();
let plainHashCount = 0;

function plainHash(lastmod: string, changefreq: string, priority: number): string {
  let byFreq = plainHashes.get(lastmod);
  if (byFreq === undefined) {
    if (plainHashCount > 5_000) {
      plainHashes = new Map();
      plainHashCount = 0;
    }
    byFreq = new Map();
    plainHashes.set(lastmod, byFreq);
  }
  let byPriority = byFreq.get(changefreq);
  if (byPriority === undefined) {
    byPriority = new Map();
    byFreq.set(changefreq, byPriority);
  }
  let h = byPriority.get(priority);
  if (h === undefined) {
    h = hashHex(`${lastmod}|${changefreq}|${priority === -1 ? '' : priority}`);
    byPriority.set(priority, h);
    plainHashCount++;
  }
  return h;
}

/**
 * A plain entry hashes its three fields; one with extensions hashes its XML as written with every
 * namespace declared up front, so the hash does not depend on which file the entry landed in.
 */
export function changeHash(e: SitemapEntry, xml: boolean): string {
  if (!hasExtensions(e)) return plainHash(e.lastmod ?? '', e.changefreq ?? '', e.priority ?? -1);
  const canonical = xml ? urlXml(e, ALL_EXTENSIONS) : textLine(e);
  return hashHex(canonical.slice(canonical.indexOf('</loc>')));
}
