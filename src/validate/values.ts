/**
 * Small pure readings of values the rules need: a lastmod as an instant, a URL's origin and
 * whether it names an asset rather than a page. They run once per URL, so they avoid `new URL()`:
 * every loc has already been through the shared URL rule (`toUri`).
 */

const LASTMOD =
  /^(\d{4,})(?:-(\d{2})(?:-(\d{2}))?)?(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A lastmod as epoch milliseconds and whether it carries a time; undefined when unreadable. */
export interface LastmodInstant {
  ms: number;
  /** The value is a date (or year, or month) without a time of day. */
  dateOnly: boolean;
}

/**
 * Reads a lastmod the parser kept (W3C Datetime or the XSD forms). A value without a zone is read
 * as UTC: the XSD allows it, and a guess of a few hours does not change the rules that use it.
 */
export function lastmodInstant(value: string): LastmodInstant | undefined {
  const m = LASTMOD.exec(value.trim());
  if (m === null) return undefined;
  const ms = Date.UTC(
    Number(m[1]),
    m[2] === undefined ? 0 : Number(m[2]) - 1,
    m[3] === undefined ? 1 : Number(m[3]),
    m[4] === undefined ? 0 : Number(m[4]),
    m[5] === undefined ? 0 : Number(m[5]),
    m[6] === undefined ? 0 : Number(m[6]),
    m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000),
  );
  if (Number.isNaN(ms)) return undefined;
  const zone = m[8];
  let offset = 0;
  if (zone !== undefined && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    offset = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  }
  return { ms: ms - offset, dateOnly: m[4] === undefined };
}

/** A small cache for the hot path: sitemaps repeat the same few lastmod values thousands of times. */
export class LastmodCache {
  readonly #map = new Map<string, LastmodInstant | null>();

  get(value: string): LastmodInstant | undefined {
    let v = this.#map.get(value);
    if (v === undefined) {
      if (this.#map.size >= 50_000) this.#map.clear();
      v = lastmodInstant(value) ?? null;
      this.#map.set(value, v);
    }
    return v ?? undefined;
  }
}

const ORIGIN = /^(https?):\/\/([^/?#]+)/i;

/** `scheme://host[:port]` of a serialised URL, with scheme and host apart; undefined for anything else. */
export function splitOrigin(url: string): { scheme: string; host: string; origin: string } | undefined {
  const m = ORIGIN.exec(url);
  if (m === null) return undefined;
  return { scheme: m[1]!.toLowerCase(), host: m[2]!.toLowerCase(), origin: m[0]!.toLowerCase() };
}

// File types that are never pages. PDFs (and plain text) are left out: Google indexes them as
// documents, and sitemaps may list them.
const ASSET_KINDS: ReadonlyArray<[string, readonly string[]]> = [
  ['an image', ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif', 'svg', 'ico', 'bmp', 'tif', 'tiff', 'heic']],
  ['a script or style sheet', ['js', 'mjs', 'cjs', 'css', 'map']],
  ['a font', ['woff', 'woff2', 'ttf', 'otf', 'eot']],
  [
    'an audio or video file',
    [
      'mp3',
      'm4a',
      'wav',
      'ogg',
      'oga',
      'flac',
      'aac',
      'mp4',
      'm4v',
      'webm',
      'mov',
      'avi',
      'mkv',
      'flv',
      'm3u8',
    ],
  ],
  [
    'an archive or download',
    ['zip', 'gz', 'tgz', 'tar', 'rar', '7z', 'bz2', 'xz', 'dmg', 'exe', 'msi', 'apk'],
  ],
  ['a data file, feed or sitemap', ['json', 'xml', 'rss', 'atom']],
];
const ASSET_BY_EXT: ReadonlyMap<string, string> = new Map(
  ASSET_KINDS.flatMap(([kind, exts]) => exts.map((e) => [e, kind] as [string, string])),
);

/** What kind of asset a URL's path names by its extension (`an image`, …), or undefined for a page. */
export function assetKind(url: string): string | undefined {
  let end = url.length;
  const q = url.indexOf('?');
  if (q !== -1) end = q;
  const h = url.indexOf('#');
  if (h !== -1 && h < end) end = h;
  const slash = url.lastIndexOf('/', end - 1);
  const dot = url.lastIndexOf('.', end - 1);
  if (dot <= slash || end - dot > 6) return undefined;
  return ASSET_BY_EXT.get(url.slice(dot + 1, end).toLowerCase());
}

/** The host without a leading `www.`: hosts that differ only by it are "the same site". */
export function bareHost(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
