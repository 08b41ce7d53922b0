/**
 * The manifest's change hash of an entry: everything but its loc (the manifest keys on the loc),
 * so that `submit --since` can tell which URLs changed between builds.
 */
import type { SitemapEntry } from '../core/entry.js';
import { hashHex } from '../core/hash.js';
import { EXTENSION_NS, type Extension, hasExtensions, textLine, urlXml } from './serialize.js';

const ALL_EXTENSIONS: ReadonlySet<Extension> = new Set(Object.keys(EXTENSION_NS) as Extension[]);

// Sites repeat a few lastmod/changefreq/priority combinations across millions of URLs (one day's
// pages), so the hash of a combination is remembered: hashing the three fields costs about 0.4 s
// a million URLs, a hit a tenth of that. The cache is a fixed table of SLOTS combinations, one a
// slot (a new combination replaces the one in its slot), and it stands aside while it misses: with
// a timestamp per row, as databases keep them, nearly every lastmod is new, and whatever a cache
// holds lives long enough to reach V8's old generation, which then grows with garbage until a full
// collection. The Map of up to 5,000 combinations this replaces took the CLI's heap to 87 MiB and
// its peak RSS to 165-171 MiB at 1,000,000 unique timestamps (--trace-gc); now 57-59 and 136-141.
const SLOTS = 16_384;
/** Lookups between two looks at the hit rate. */
const WINDOW = 4096;
/** Combinations hashed without the cache once it has missed more than half of a window. */
const BYPASS = 16 * WINDOW;
const slotLastmod: string[] = new Array<string>(SLOTS).fill('');
const slotFreq: string[] = new Array<string>(SLOTS).fill('');
const slotPriority = new Float64Array(SLOTS).fill(Number.NaN);
const slotHash: string[] = new Array<string>(SLOTS).fill('');
let lookups = 0;
let hits = 0;
let bypass = 0;

/**
 * Which slot a combination lives in: its characters mixed without allocating, then murmur3's
 * finaliser (a plain multiply-shift put 420 dates, frequencies and priorities in 360 slots).
 */
function slotOf(lastmod: string, changefreq: string, priority: number): number {
  let h = (changefreq === '' ? 0 : changefreq.charCodeAt(0)) * 31 + Math.round(priority * 10);
  for (let i = 0; i < lastmod.length; i++) h = (Math.imul(h, 31) + lastmod.charCodeAt(i)) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 18;
}

/**
 * A string that holds its own characters. A lastmod cut out of a larger text (the parser's, for
 * `--from-sitemap`) is a slice that keeps the whole text alive; a slot holding it would keep one
 * such text per slot. Concatenating and cutting again flattens it into a copy of its own length.
 */
function ownCopy(s: string): string {
  return ` ${s}`.slice(1);
}

function hashOf(lastmod: string, changefreq: string, priority: number): string {
  return hashHex(`${lastmod}|${changefreq}|${priority === -1 ? '' : priority}`);
}

/** Counts a lookup; after a window with more misses than hits the cache is emptied and stands aside. */
function judge(hit: boolean): void {
  if (hit) hits++;
  if (++lookups < WINDOW) return;
  if (hits * 2 < WINDOW) {
    bypass = BYPASS;
    slotLastmod.fill('');
    slotFreq.fill('');
    slotPriority.fill(Number.NaN);
    slotHash.fill('');
  }
  lookups = 0;
  hits = 0;
}

function plainHash(lastmod: string, changefreq: string, priority: number): string {
  if (bypass > 0) {
    bypass--;
    return hashOf(lastmod, changefreq, priority);
  }
  const i = slotOf(lastmod, changefreq, priority);
  if (slotLastmod[i] === lastmod && slotFreq[i] === changefreq && slotPriority[i] === priority) {
    const h = slotHash[i]!;
    // After the read: judging may empty the table.
    judge(true);
    return h;
  }
  const h = hashOf(lastmod, changefreq, priority);
  slotLastmod[i] = ownCopy(lastmod);
  slotFreq[i] = changefreq;
  slotPriority[i] = priority;
  slotHash[i] = h;
  judge(false);
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
