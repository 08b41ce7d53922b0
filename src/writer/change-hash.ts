/**
 * The manifest's change hash of an entry: everything but its loc (the manifest keys on the loc),
 * so that `submit --since` can tell which URLs changed between builds.
 */
import type { SitemapEntry } from '../core/entry.js';
import { hashHex } from '../core/hash.js';
import { EXTENSION_NS, type Extension, hasExtensions, textLine, urlXml } from './serialize.js';

const ALL_EXTENSIONS: ReadonlySet<Extension> = new Set(Object.keys(EXTENSION_NS) as Extension[]);

// Sites repeat one lastmod/changefreq/priority combination over runs of URLs (one day's pages, an
// export sorted by date), so the last combination and its hash are remembered. Nothing more: a
// cache of many combinations (a Map of up to 50,000, then 5,000) cost more than it saved. With a
// timestamp per row, as databases keep them, nearly every lastmod is new; each cached value lived
// long enough to reach V8's old generation, which then grew with garbage until a full collection:
// 136 MiB of peak RSS at 1,000,000 unique timestamps against 106 MiB with few (bench/sql.mjs).
// Hashing the three fields is a few dozen multiplications, less than a Map lookup with its key.
let lastLastmod = '';
let lastFreq = '';
let lastPriority = Number.NaN;
let lastHash = '';

function plainHash(lastmod: string, changefreq: string, priority: number): string {
  if (lastmod !== lastLastmod || changefreq !== lastFreq || priority !== lastPriority) {
    lastHash = hashHex(`${lastmod}|${changefreq}|${priority === -1 ? '' : priority}`);
    lastLastmod = lastmod;
    lastFreq = changefreq;
    lastPriority = priority;
  }
  return lastHash;
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
