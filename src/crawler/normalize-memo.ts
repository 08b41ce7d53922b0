/**
 * A memo of the crawler's normalisation of a reference against a base, so that the links every
 * page repeats (navigation, home, parent) are parsed once rather than on every page: the WHATWG
 * parse and the escape and parameter rewriting were a fifth of the crawl loop's time.
 *
 * The memo is keyed by exactly what the result depends on, never by the whole base URL (which is
 * different on every page): an http(s) base contributes only its scheme to a scheme-relative
 * reference (`//host/a`), only its scheme and authority to a path-absolute one (`/a/b`), and only
 * its "directory" (up to the last `/` of its path) to a relative path (`a/b`, `../c`, `mailto:x`),
 * and nothing to an absolute `http://` or `https://` one. A reference whose result may depend on
 * more (`?q`, `#f`, the empty one, one that starts with a space or a control character) or a base
 * that is not plain (a backslash, a space, `@`, an upper-case scheme) is not memoised: it goes
 * through the normaliser every time. test/crawler/normalize-memo.test.ts proves the keys.
 */

/**
 * Entries kept at most; the oldest goes first. A site's repeated links are its navigation, a few
 * hundred at most; every entry is live heap (a key, a URL built from parts: about 400 bytes), and
 * V8 sizes the heap as a multiple of what is live, so a larger memo costs more than itself.
 */
const MAX_ENTRIES = 4_000;

/** The prefixes of a base a reference's result can depend on, by kind. */
interface BaseParts {
  scheme: string;
  origin: string;
  dir: string;
}

/** The prefix of `base` a reference's result can depend on, by kind; undefined: do not memoise. */
function baseParts(base: string): BaseParts | undefined {
  let start: number;
  if (base.startsWith('https://')) start = 8;
  else if (base.startsWith('http://')) start = 7;
  else return undefined;
  // The authority ends at the first `/`; a base without a path or with a query right after the
  // authority, or with characters the parser rewrites or strips anywhere, is not memoised.
  const slash = base.indexOf('/', start);
  if (slash === -1) return undefined;
  let pathEnd = base.length;
  for (let i = start; i < base.length; i++) {
    const c = base.charCodeAt(i);
    if (c <= 0x20 || c === 0x5c /* \ */ || c >= 0x7f) return undefined;
    if (i < slash && (c === 0x40 /* @ */ || c === 0x3f /* ? */ || c === 0x23) /* # */) return undefined;
    if (i > slash && (c === 0x3f || c === 0x23) && pathEnd === base.length) pathEnd = i;
  }
  const dirEnd = base.lastIndexOf('/', pathEnd - 1);
  // A last segment that is a dot segment (`..`, `%2e`) moves the parsed base's directory itself.
  if (/^(?:\.|%2e)+$/i.test(base.slice(dirEnd + 1, pathEnd))) return undefined;
  return { scheme: base.slice(0, start), origin: base.slice(0, slash), dir: base.slice(0, dirEnd + 1) };
}

const TAB_OR_NEWLINE = /[\t\n\r]/;
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Whether `raw` goes on at `i` with a character after which the base's last segment is unused. */
function plainStart(raw: string, i: number): boolean {
  if (i >= raw.length) return false;
  const c = raw.charCodeAt(i);
  // Spaces and controls are trimmed; `?` and `#` keep the base's path (and query).
  return !(c <= 0x20 || c === 0x3f /* ? */ || c === 0x23 /* # */ || c >= 0x7f);
}

/**
 * The key under which `normalize(raw, base)` may be memoised, or undefined when its result may
 * depend on more than the key says. Exported for the property test.
 */
export function memoKey(raw: string, base: string | undefined): string | undefined {
  return base === undefined ? undefined : keyOf(raw, base, baseParts);
}

/** {@link memoKey}, the base's parts found by `parts` (the memo keeps the last base's). */
function keyOf(
  raw: string,
  base: string,
  parts: (base: string) => BaseParts | undefined,
): string | undefined {
  const c0 = raw.charCodeAt(0);
  // Leading spaces and controls are trimmed, after which the reference could be anything.
  if (!plainStart(raw, 0)) return undefined;
  // Tabs and newlines are removed before parsing (`ht\ttp:`), anywhere: such a reference is rare.
  if (TAB_OR_NEWLINE.test(raw)) return undefined;
  // `http:`, `http:?q` and `http:#f` name the base itself when the scheme is the base's.
  const scheme = SCHEME.exec(raw);
  if (scheme !== null && !plainStart(raw, scheme[0].length)) return undefined;
  if (raw.startsWith('https://') || raw.startsWith('http://')) {
    // Absolute with a special scheme and its slashes: the base plays no part.
    return `A ${raw}`;
  }
  const p = parts(base);
  if (p === undefined) return undefined;
  if (c0 === 0x2f /* / */ || c0 === 0x5c /* \ */) {
    const c1 = raw.charCodeAt(1);
    // `//host…` (or with backslashes): only the base's scheme; `/path`: its scheme and authority.
    if (c1 === 0x2f || c1 === 0x5c) return `S ${p.scheme} ${raw}`;
    return `O ${p.origin} ${raw}`;
  }
  // A relative path, or a reference with its own scheme (`mailto:`, `http:x`): at most the
  // base's directory.
  return `D ${p.dir} ${raw}`;
}

/** `normalize` with a bounded memo in front (only for the references {@link memoKey} keys). */
export class NormalizeMemo {
  readonly #normalize: (raw: string, base: string | undefined) => string | undefined;
  readonly #memo = new Map<string, string | null>();
  // A page's links share its base: its parts are found once a page, not once a link.
  #base: string | undefined;
  #parts: BaseParts | undefined;
  readonly #partsOf = (base: string): BaseParts | undefined => {
    if (base !== this.#base) {
      this.#base = base;
      this.#parts = baseParts(base);
    }
    return this.#parts;
  };

  constructor(normalize: (raw: string, base: string | undefined) => string | undefined) {
    this.#normalize = normalize;
  }

  /** Forgets every entry (the crawl's last page is done: the output normalises nothing). */
  clear(): void {
    this.#memo.clear();
  }

  get(raw: string, base: string | undefined): string | undefined {
    const key = base === undefined ? undefined : keyOf(raw, base, this.#partsOf);
    if (key === undefined) return this.#normalize(raw, base);
    const hit = this.#memo.get(key);
    if (hit !== undefined) return hit === null ? undefined : hit;
    const url = this.#normalize(raw, base);
    if (this.#memo.size >= MAX_ENTRIES) {
      const oldest = this.#memo.keys().next().value;
      if (oldest !== undefined) this.#memo.delete(oldest);
    }
    this.#memo.set(key, url ?? null);
    return url;
  }
}
