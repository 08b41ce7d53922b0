/**
 * Which of a site's page images belong in its sitemap. A logo, an icon or a banner of the page
 * template appears on nearly every page and tells a search engine nothing about any of them, so an
 * image found on more than a share of the pages is left out (once there are enough pages to tell),
 * as are images matching the user's globs. Shared by `generate --from-dir` and the crawler.
 */
import picomatch from 'picomatch';
import { SitemapkitError } from '../core/errors.js';

export interface ImageFilterOptions {
  /**
   * Leave out an image found on more than this share of the pages (0 to 1): a template's logo.
   * Judged only from {@link MIN_PAGES_FOR_SHARE} pages on; 1 keeps every image. @default 0.5
   */
  maxShare?: number | undefined;
  /**
   * Globs of images to leave out, matched against the image's full URL and against its path:
   * `**\/logo.*`, `/static/icons/**`, `https://cdn.example.com/badges/**`.
   */
  exclude?: readonly string[] | undefined;
}

/** Below this many pages, no image is judged by its share: two pages of four is not a template. */
export const MIN_PAGES_FOR_SHARE = 4;

export interface ResolvedImageFilter {
  maxShare: number;
  exclude: readonly string[];
}

/** Checks the options once (`ERR_OPTIONS` for a share outside 0–1). */
export function resolveImageFilter(o: ImageFilterOptions = {}): ResolvedImageFilter {
  const share = o.maxShare ?? 0.5;
  if (typeof share !== 'number' || !(share >= 0 && share <= 1)) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `images.maxShare must be a number from 0 to 1, not ${String(share)}`,
      {
        hint: 'For example 0.5: an image on more than half of the pages is left out; 1 keeps every image.',
      },
    );
  }
  return { maxShare: share, exclude: [...(o.exclude ?? [])] };
}

/**
 * Counts the pages each image appears on (call {@link count} once per page, first pass), then
 * filters each page's images (second pass).
 */
export class ImageFilter {
  readonly #o: ResolvedImageFilter;
  readonly #pagesOf = new Map<string, number>();
  readonly #excluded: (url: string) => boolean;
  #pages = 0;

  constructor(options: ResolvedImageFilter) {
    this.#o = options;
    const matchers = options.exclude.map((g) => picomatch(g, { dot: true }));
    this.#excluded = (url) => {
      if (matchers.length === 0) return false;
      let path = url;
      try {
        path = new URL(url).pathname;
      } catch {}
      return matchers.some((m) => m(url) || m(path));
    };
  }

  /** Whether the share rule needs a first pass over the pages. */
  get needsCounts(): boolean {
    return this.#o.maxShare < 1;
  }

  /** Records the images of one page (each counted once a page). */
  count(images: readonly string[]): void {
    this.#pages++;
    for (const u of new Set(images)) this.#pagesOf.set(u, (this.#pagesOf.get(u) ?? 0) + 1);
  }

  /** The number of pages an image is on more than which it is left out, or undefined when not judged. */
  get limit(): number | undefined {
    if (!this.needsCounts || this.#pages < MIN_PAGES_FOR_SHARE) return undefined;
    return this.#o.maxShare * this.#pages;
  }

  /** The images common to too many pages: URL → pages it is on. */
  common(): Map<string, number> {
    const limit = this.limit;
    const out = new Map<string, number>();
    if (limit === undefined) return out;
    for (const [u, n] of this.#pagesOf) if (n > limit) out.set(u, n);
    return out;
  }

  /** The pages counted. */
  get pages(): number {
    return this.#pages;
  }

  /** The images of a page that stay. */
  keep(images: readonly string[]): string[] {
    const limit = this.limit;
    return images.filter(
      (u) => !this.#excluded(u) && (limit === undefined || (this.#pagesOf.get(u) ?? 0) <= limit),
    );
  }
}
