/**
 * hreflang reciprocity across a whole build (Google: every URL of a group lists every alternate,
 * itself included; pages that do not point at each other are ignored). Memory is one record per
 * distinct group plus a 53-bit key per URL that has alternates.
 */
import type { AlternateEntry } from '../core/entry.js';
import { hashKey } from '../core/hash.js';

export interface ReciprocityProblem {
  /** The URL whose alternates disagree with its group, or that lacks them. */
  url: string;
  /** The group member that lists it. */
  listedBy: string;
  /** The group's signature (see {@link groupSignature}). */
  group: string;
  message: string;
}

/** What a build knows about a URL beyond its alternates. */
export interface BuildMembership {
  /** Whether the URL was written (or is to be written) in this build. */
  inBuild(url: string): boolean;
  /**
   * Whether the URL could be in this build (the location rule): such a page that is not in it
   * leaves its group one-sided. Pages elsewhere (other hosts) cannot be checked here.
   */
  inScope(url: string): boolean;
}

/** The same text for every page that lists the same set of alternates, in any order. */
export function groupSignature(alternates: readonly AlternateEntry[]): string {
  return alternates
    .map((a) => `${a.hreflang.toLowerCase()} ${a.href}`)
    .sort()
    .join('\n');
}

export class HreflangGroups {
  readonly #groups = new Map<string, { hrefs: string[]; first: string }>();
  readonly #groupOf = new Map<number, string>();

  /** Records a page's group; returns its signature. */
  add(loc: string, alternates: readonly AlternateEntry[]): string {
    const sig = groupSignature(alternates);
    if (!this.#groups.has(sig))
      this.#groups.set(sig, { hrefs: [...new Set(alternates.map((a) => a.href))], first: loc });
    this.#groupOf.set(hashKey(loc), sig);
    return sig;
  }

  get size(): number {
    return this.#groupOf.size;
  }

  /**
   * Checks every group member: it must carry the same set of alternates. A member that is not
   * in the build is a problem when it could have been (see {@link BuildMembership.inScope}).
   */
  check(build: BuildMembership, limit = 1000): ReciprocityProblem[] {
    const problems: ReciprocityProblem[] = [];
    for (const [sig, group] of this.#groups) {
      for (const href of group.hrefs) {
        const why = this.#mismatch(sig, href, build);
        if (why === undefined) continue;
        problems.push({ url: href, listedBy: group.first, group: sig, message: why(group.first) });
        if (problems.length >= limit) return problems;
      }
    }
    return problems;
  }

  /**
   * The first problem of each group that has one, by signature. Its members lose their
   * alternates; groups without a problem are unaffected by that (all their members share them).
   */
  broken(build: BuildMembership): Map<string, ReciprocityProblem> {
    const out = new Map<string, ReciprocityProblem>();
    for (const [sig, group] of this.#groups) {
      for (const href of group.hrefs) {
        const why = this.#mismatch(sig, href, build);
        if (why === undefined) continue;
        out.set(sig, { url: href, listedBy: group.first, group: sig, message: why(group.first) });
        break;
      }
    }
    return out;
  }

  #mismatch(sig: string, href: string, build: BuildMembership): ((first: string) => string) | undefined {
    const theirs = this.#groupOf.get(hashKey(href));
    if (theirs === sig) return undefined;
    if (theirs !== undefined) {
      return (first) =>
        `${href} lists a different set of hreflang alternates than ${first}, which names it as an alternate; every page of a group must list the same set, itself included`;
    }
    if (build.inBuild(href)) {
      return (first) =>
        `${href} is an hreflang alternate of ${first} but lists no alternates itself; Google ignores links that are not reciprocal`;
    }
    if (build.inScope(href)) {
      return (first) =>
        `${href} is an hreflang alternate of ${first} but is not in this build, so it cannot list ${first} back; Google ignores links that are not reciprocal`;
    }
    return undefined;
  }
}
