/**
 * Rules about a whole tree, decided at its end: one consistent host and scheme, and hreflang
 * groups confirmed both ways. Memory stays bounded: hosts are counted per origin (at most 1,000
 * origins), and hreflang links are kept up to a cap beyond which the check is skipped, with a note.
 */
import { bareHost, splitOrigin } from './values.js';

/** Where a finding about the tree points: the first URL of the origin or group at fault. */
export interface TreeFinding {
  code: string;
  message: string;
  url: string;
  sitemap: string;
  line: number | undefined;
}

interface OriginSeen {
  scheme: string;
  host: string;
  count: number;
  url: string;
  sitemap: string;
  line: number | undefined;
}

const MAX_ORIGINS = 1000;

/** Pages per origin, for the www/bare host and http/https rules. */
export class HostTally {
  readonly #origins = new Map<string, OriginSeen & { origin: string }>();
  /** The origin of the previous URL: sitemaps list one origin for thousands of URLs in a row. */
  #last: (OriginSeen & { origin: string }) | undefined;

  add(url: string, sitemap: string, line: number | undefined): void {
    const last = this.#last;
    // Locs are serialised (lower-case scheme and host), so a prefix test is enough.
    if (last !== undefined && url.startsWith(last.origin) && url.charCodeAt(last.origin.length) === 47) {
      last.count++;
      return;
    }
    const o = splitOrigin(url);
    if (o === undefined) return;
    const seen = this.#origins.get(o.origin);
    if (seen !== undefined) {
      seen.count++;
      this.#last = seen;
      return;
    }
    if (this.#origins.size >= MAX_ORIGINS) return;
    const first = { origin: o.origin, scheme: o.scheme, host: o.host, count: 1, url, sitemap, line };
    this.#origins.set(o.origin, first);
    this.#last = first;
  }

  /** One finding per minority host (www vs bare) and per minority scheme of a host. */
  findings(): TreeFinding[] {
    const out: TreeFinding[] = [];
    const origins = [...this.#origins.values()];
    const sum = (list: readonly OriginSeen[]): number => list.reduce((n, o) => n + o.count, 0);
    // www.example.com and example.com: the host with fewer pages is the odd one out.
    const bySite = group(origins, (o) => bareHost(o.host));
    for (const list of bySite.values()) {
      const byHost = group(list, (o) => o.host);
      if (byHost.size < 2) continue;
      const ranked = [...byHost.entries()].sort((a, b) => sum(b[1]) - sum(a[1]));
      const [mainHost, mainList] = ranked[0]!;
      for (const [host, l] of ranked.slice(1)) {
        const first = l[0]!;
        out.push({
          code: 'url-mixed-host',
          message: `${sum(l).toLocaleString('en-US')} URL(s) use ${host} while ${sum(mainList).toLocaleString('en-US')} use ${mainHost}, for example ${first.url}`,
          url: first.url,
          sitemap: first.sitemap,
          line: first.line,
        });
      }
    }
    const byHost = group(origins, (o) => o.host);
    for (const [host, list] of byHost) {
      const byScheme = group(list, (o) => o.scheme);
      if (byScheme.size < 2) continue;
      const ranked = [...byScheme.entries()].sort((a, b) => sum(b[1]) - sum(a[1]));
      const [mainScheme, mainList] = ranked[0]!;
      for (const [scheme, l] of ranked.slice(1)) {
        const first = l[0]!;
        out.push({
          code: 'url-mixed-scheme',
          message: `${sum(l).toLocaleString('en-US')} URL(s) of ${host} use ${scheme} while ${sum(mainList).toLocaleString('en-US')} use ${mainScheme}, for example ${first.url}`,
          url: first.url,
          sitemap: first.sitemap,
          line: first.line,
        });
      }
    }
    return out;
  }
}

function group<T>(list: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const t of list) {
    const k = key(t);
    const l = out.get(k);
    if (l === undefined) out.set(k, [t]);
    else l.push(t);
  }
  return out;
}

interface PageGroup {
  alternates: Array<{ hreflang: string; href: string }>;
  sitemap: string;
  line: number | undefined;
}

/** hreflang links kept at most; past it the reciprocity check is skipped (about 150 bytes a link). */
export const MAX_HREFLANG_LINKS = 200_000;

/** The hreflang groups of a tree, for the "confirmed both ways" rule. */
export class HreflangGroups {
  readonly #pages = new Map<string, PageGroup>();
  #links = 0;
  #overflow = false;
  readonly #max: number;

  constructor(max: number = MAX_HREFLANG_LINKS) {
    this.#max = max;
  }

  /** Whether the cap was passed (the check is then skipped). */
  get overflowed(): boolean {
    return this.#overflow;
  }

  add(
    loc: string,
    alternates: ReadonlyArray<{ hreflang: string; href: string }>,
    sitemap: string,
    line: number | undefined,
  ): void {
    if (this.#overflow) return;
    this.#links += alternates.length;
    if (this.#links > this.#max) {
      this.#overflow = true;
      this.#pages.clear();
      return;
    }
    // A page listed twice keeps its first group: url-duplicate reports the second.
    if (!this.#pages.has(loc)) {
      this.#pages.set(loc, {
        alternates: alternates.map((a) => ({ hreflang: a.hreflang, href: a.href })),
        sitemap,
        line,
      });
    }
  }

  /**
   * One finding per page whose alternate does not list it back. An alternate on a host none of the
   * checked pages is on (example.de beside example.com) is left alone: its own site's sitemap
   * lists its group, which this tree cannot see, so calling it one-sided would fail every
   * multi-domain set the writer rightly writes.
   */
  findings(): TreeFinding[] {
    const out: TreeFinding[] = [];
    const hosts = new Set<string>();
    for (const loc of this.#pages.keys()) hosts.add(originOf(loc));
    for (const [loc, page] of this.#pages) {
      const missing: string[] = [];
      for (const a of page.alternates) {
        if (a.href === loc) continue;
        const other = this.#pages.get(a.href);
        if (other === undefined && !hosts.has(originOf(a.href))) continue;
        if (other === undefined)
          missing.push(`${a.href} (${a.hreflang}) is not listed with alternates of its own`);
        else if (!other.alternates.some((b) => b.href === loc))
          missing.push(`${a.href} (${a.hreflang}) does not list this page back`);
      }
      if (missing.length === 0) continue;
      const shown = missing.slice(0, 3).join('; ');
      out.push({
        code: 'hreflang-not-reciprocal',
        message: `${shown}${missing.length > 3 ? `; and ${missing.length - 3} more` : ''}`,
        url: loc,
        sitemap: page.sitemap,
        line: page.line,
      });
    }
    return out;
  }
}

/** The origin of a URL, or the text itself when it is not one (it then matches no page's). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
