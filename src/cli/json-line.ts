import type { SitemapEntry } from '../core/entry.js';

/**
 * `JSON.stringify` of a parsed row, written in one pass (issue 16): the same bytes, without
 * serialising the whole object and then copying the text to add `"sitemap"` at the end. Strings
 * that need no escaping (nearly all of a sitemap's) are quoted as they are; anything unusual (an
 * escape, a lone surrogate, a value with `toJSON`, null, a bigint) goes through `JSON.stringify`
 * itself, so every rule of it is kept. `test/cli/json-line.test.ts` proves the equality on
 * arbitrary values; `test/parser/output-pinned.test.ts` on every fixture.
 */

/** Characters `JSON.stringify` writes as an escape: `"`, `\`, controls, and any surrogate (lone ones are escaped; pairs are left to it). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON. */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/** `JSON.stringify(value)` for the values an entry holds; undefined where it gives undefined. */
export function jsonValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return jsonString(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null || typeof (value as { toJSON?: unknown }).toJSON === 'function') break;
      if (Array.isArray(value)) {
        let s = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) s += ',';
          s += jsonValue(value[i]) ?? 'null';
        }
        return `${s}]`;
      }
      if (Object.getPrototypeOf(value) !== Object.prototype) break;
      return `{${members(value as Record<string, unknown>)}}`;
  }
  return JSON.stringify(value);
}

/**
 * The members of a plain object (no toJSON, Object's prototype), without braces: its own
 * enumerable string keys in their order, which is what JSON.stringify walks.
 */
function members(o: Record<string, unknown>): string {
  let s = '';
  let comma = '';
  for (const key in o) {
    if (!Object.hasOwn(o, key)) continue;
    const v = o[key];
    const json = typeof v === 'string' ? jsonString(v) : jsonValue(v);
    if (json === undefined) continue;
    s += `${comma}${keyJson(key)}${json}`;
    comma = ',';
  }
  return s;
}

/** `"key":` for each key seen, remembered (an entry has a few dozen distinct keys at most). */
const KEYS = new Map<string, string>();

function keyJson(key: string): string {
  let json = KEYS.get(key);
  if (json === undefined) {
    json = `${jsonString(key)}:`;
    if (KEYS.size < 256) KEYS.set(key, json);
  }
  return json;
}

/**
 * One JSON line: `row` as `JSON.stringify` writes it, with `"sitemap":sitemapJson` added as the
 * last member when the row has no `sitemap` of its own (`sitemapJson` is already JSON).
 */
export function jsonLine(row: object, sitemapJson: string): string {
  const plain =
    typeof (row as { toJSON?: unknown }).toJSON !== 'function' &&
    Object.getPrototypeOf(row) === Object.prototype;
  if (!plain || (row as { sitemap?: unknown }).sitemap !== undefined) {
    const json = JSON.stringify(row);
    return (row as { sitemap?: unknown }).sitemap === undefined
      ? `${json.slice(0, -1)},"sitemap":${sitemapJson}}\n`
      : `${json}\n`;
  }
  // The members are written straight into the line, "sitemap" after them: no second pass.
  return `{${members(row as Record<string, unknown>)},"sitemap":${sitemapJson}}\n`;
}

/**
 * The JSON line of a page entry as the parser builds it (issue 16): `jsonLine(entry, sitemapJson)`
 * without walking its keys. The parser's `buildEntry` sets the entry model's fields in this
 * order, and only those, so the members are written one by one in that order; an image with
 * only a `loc` (nearly all of them) is written inline, anything rarer by {@link jsonValue}.
 * `plain`: the parser vouches that no string of the entry needs escaping (`isPlainBatch` of
 * parser/run.ts), so none is looked at. Not for objects from elsewhere: a key the parser never
 * sets would be left out. `test/cli/json-line.test.ts` proves it equal to `jsonLine` on generated
 * and fixture sitemaps, and test/parser/simple-url.test.ts on the entries vouched for.
 */
export function entryLine(e: SitemapEntry, sitemapJson: string, plain = false): string {
  if (plain) return plainLine(e, sitemapJson);
  // Quotes written around the value in the same concatenation as its key (one string fewer per
  // field than through jsonString), unless the value needs escapes.
  const loc = e.loc;
  let s = NEEDS_ESCAPE.test(loc) ? `{"loc":${JSON.stringify(loc)}` : `{"loc":"${loc}"`;
  const lastmod = e.lastmod;
  if (lastmod !== undefined)
    s += NEEDS_ESCAPE.test(lastmod) ? `,"lastmod":${JSON.stringify(lastmod)}` : `,"lastmod":"${lastmod}"`;
  // A changefreq is one of seven lower-case words: nothing to escape.
  if (e.changefreq !== undefined) s += `,"changefreq":"${e.changefreq}"`;
  if (e.priority !== undefined) s += `,"priority":${jsonValue(e.priority)}`;
  const images = e.images;
  if (images !== undefined) {
    s += ',"images":[';
    for (let i = 0; i < images.length; i++) {
      const image = images[i]!;
      if (i > 0) s += ',';
      s +=
        image.caption === undefined &&
        image.geo_location === undefined &&
        image.title === undefined &&
        image.license === undefined
          ? NEEDS_ESCAPE.test(image.loc)
            ? `{"loc":${JSON.stringify(image.loc)}}`
            : `{"loc":"${image.loc}"}`
          : jsonValue(image);
    }
    s += ']';
  }
  if (e.videos !== undefined) s += `,"videos":${jsonValue(e.videos)}`;
  if (e.news !== undefined) s += `,"news":${jsonValue(e.news)}`;
  if (e.alternates !== undefined) s += `,"alternates":${jsonValue(e.alternates)}`;
  if (e.links !== undefined) s += `,"links":${jsonValue(e.links)}`;
  if (e.mobile !== undefined) s += ',"mobile":true';
  return `${s},"sitemap":${sitemapJson}}\n`;
}

/**
 * {@link entryLine} of an entry read whole by the parser with plain strings: only the fields of
 * a simple `<url>` (xml-simple-url.ts: loc, lastmod, changefreq, priority, images with a loc
 * each), every string quoted as it is.
 */
function plainLine(e: SitemapEntry, sitemapJson: string): string {
  let s = `{"loc":"${e.loc}"`;
  if (e.lastmod !== undefined) s += `,"lastmod":"${e.lastmod}"`;
  if (e.changefreq !== undefined) s += `,"changefreq":"${e.changefreq}"`;
  if (e.priority !== undefined) s += `,"priority":${jsonValue(e.priority)}`;
  const images = e.images;
  if (images !== undefined) {
    s += `,"images":[{"loc":"${images[0]!.loc}"}`;
    for (let i = 1; i < images.length; i++) s += `,{"loc":"${images[i]!.loc}"}`;
    s += ']';
  }
  return `${s},"sitemap":${sitemapJson}}\n`;
}
