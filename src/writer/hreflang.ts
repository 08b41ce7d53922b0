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
  message: string;
}

function signature(alternates: readonly AlternateEntry[]): string {
  return alternates
    .map((a) => `${a.hreflang.toLowerCase()} ${a.href}`)
    .sort()
    .join('\n');
}

export class HreflangGroups {
  readonly #groups = new Map<string, { hrefs: string[]; first: string }>();
  readonly #groupOf = new Map<number, string>();

  add(loc: string, alternates: readonly AlternateEntry[]): void {
    const sig = signature(alternates);
    if (!this.#groups.has(sig))
      this.#groups.set(sig, { hrefs: [...new Set(alternates.map((a) => a.href))], first: loc });
    this.#groupOf.set(hashKey(loc), sig);
  }

  get size(): number {
    return this.#groupOf.size;
  }

  /**
   * Checks every group member that is part of this build: it must carry the same set of
   * alternates. Members outside the build (other hosts, other sitemaps) cannot be checked here.
   * `inBuild` says whether a URL was written in this build at all.
   */
  check(inBuild: (url: string) => boolean, limit = 1000): ReciprocityProblem[] {
    const problems: ReciprocityProblem[] = [];
    for (const [sig, group] of this.#groups) {
      for (const href of group.hrefs) {
        const theirs = this.#groupOf.get(hashKey(href));
        if (theirs === sig) continue;
        if (theirs !== undefined) {
          problems.push({
            url: href,
            listedBy: group.first,
            message: `${href} lists a different set of hreflang alternates than ${group.first}, which names it as an alternate; every page of a group must list the same set, itself included`,
          });
        } else if (inBuild(href)) {
          problems.push({
            url: href,
            listedBy: group.first,
            message: `${href} is an hreflang alternate of ${group.first} but lists no alternates itself; Google ignores links that are not reciprocal`,
          });
        }
        if (problems.length >= limit) return problems;
      }
    }
    return problems;
  }
}
