/**
 * The HTML site map: pages of links for people (and crawlers that follow links), written while the
 * entries stream in. Memory holds one unfinished page per section, never the whole site.
 *
 * Files (mirroring the XML names): `sitemap.html` is the entry page; `sitemap-00001.html`, … hold
 * entries without a section and `sitemap-SECTION-00001.html`, … those of a section. When a section
 * has more pages than fit on one page of links, `sitemap-SECTION.pages-00001.html`, … (level 2:
 * `.pages2-`, …) list its pages so that no page, the entry page aside, exceeds `linksPerPage`.
 * Names with `.pages` cannot clash with a section's pages: section names have no dot.
 */
import { join } from 'node:path';
import { wholeNumber } from '../core/checks.js';
import type { SitemapEntry } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_URLS } from '../core/limits.js';
import { toUri } from '../core/url.js';
import {
  type Crumb,
  escapeHtml,
  formatCount,
  type PageShell,
  readableHost,
  readableUrl,
  renderItem,
  renderPage,
} from './render.js';

/** Options of {@link HtmlSitemapBuilder}. */
export interface HtmlSitemapOptions {
  /** Existing folder the pages are written into. Required unless `write` is given. */
  dir?: string;
  /**
   * Takes each finished page instead of a folder (the writer passes its sink's). The builder
   * keeps at most a few page writes in flight.
   */
  write?: (path: string, html: string) => Promise<void>;
  /** Public URL of `dir` (ends with '/'), e.g. `https://example.com/`. */
  baseUrl: string;
  /** Site name for headings and titles. @default the baseUrl's host, e.g. `example.com` */
  siteName?: string;
  /**
   * Links on one page, 2 to 50,000. @default 100 (the seeds advise at most 100 links a page)
   */
  linksPerPage?: number;
}

/** One file the builder wrote. */
export interface HtmlSitemapFile {
  /** Relative to `dir`, e.g. `sitemap-blog-00002.html`. */
  path: string;
  /** Public URL: `baseUrl` + `path`. */
  url: string;
  /**
   * Links in the file's list: pages of the site on a page of links; pages (or lists of pages) of
   * the site map on the entry page and on `.pages` files. Navigation links are not counted.
   */
  links: number;
}

/** The `HtmlSitemapBuilder.DEFAULT_LINKS_PER_PAGE`. */
export const DEFAULT_LINKS_PER_PAGE = 100;

// Must stay in step with the entry model's section rule (src/core/normalize.ts): the name
// becomes part of file names, so anything else is refused here too rather than trusted.
const SECTION_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const ENTRY_PAGE = 'sitemap.html';

type PageWriter = (path: string, html: string) => Promise<void>;

// Loaded on first use, so that the module graph stays free of node:fs for callers that pass
// `write`. The callback form: about a quarter cheaper a file than fs/promises' writeFile.
let diskWriter: Promise<PageWriter> | undefined;

function toDisk(): Promise<PageWriter> {
  diskWriter ??= Promise.all([import('node:fs'), import('node:util')]).then(([fs, util]) =>
    util.promisify(fs.writeFile),
  );
  return diskWriter;
}

/** Page writes in flight before add() waits for one to finish. */
const MAX_WRITES = 8;

interface Group {
  /** '' for entries without a section. */
  section: string;
  /** Rendered `<li>`s of the page being filled. */
  items: string[];
  /** Pages already written. */
  pages: number;
  links: number;
}

function pad(n: number): string {
  return String(n).padStart(5, '0');
}

function pageName(section: string, n: number): string {
  return section === '' ? `sitemap-${pad(n)}.html` : `sitemap-${section}-${pad(n)}.html`;
}

function listName(section: string, level: number, n: number): string {
  const prefix = section === '' ? 'sitemap' : `sitemap-${section}`;
  return `${prefix}.pages${level === 1 ? '' : level}-${pad(n)}.html`;
}

/**
 * How a section is named for people: `products` → `Products` (the file names keep the section as
 * given). Entries without a section are `Pages`, or `Other pages` on a site map that also has a
 * section called `pages`: no two headings may read the same, and a section name has no space.
 */
function groupLabel(section: string, sections: ReadonlyMap<string, unknown>): string {
  if (section === '') return sections.has('pages') ? 'Other pages' : 'Pages';
  return section.charAt(0).toUpperCase() + section.slice(1);
}

function anchor(section: string): string {
  return section === '' ? 'pages' : `section-${section}`;
}

function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Resolved options: every default applied once, the caller's object left alone. */
interface Resolved {
  dir: string | undefined;
  write: PageWriter | undefined;
  baseUrl: string;
  siteHost: string;
  siteName: string;
  perPage: number;
}

function resolveOptions(options: HtmlSitemapOptions): Resolved {
  if (typeof options.dir !== 'string' && typeof options.write !== 'function') {
    throw new SitemapkitError('ERR_OPTIONS', 'HtmlSitemapBuilder needs a folder (dir) or a write function', {
      hint: 'pass dir: the existing folder the pages go into',
    });
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute URL`,
      {
        hint: 'give the public URL of the output folder, e.g. https://example.com/',
      },
    );
  }
  if (
    (base.protocol !== 'http:' && base.protocol !== 'https:') ||
    !base.pathname.endsWith('/') ||
    base.search !== ''
  ) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `baseUrl ${JSON.stringify(options.baseUrl)} must be an http(s) folder URL ending with '/'`,
      {
        hint: 'for example https://example.com/ or https://example.com/maps/',
      },
    );
  }
  const perPage = wholeNumber('linksPerPage', options.linksPerPage, DEFAULT_LINKS_PER_PAGE, {
    min: 2,
    max: MAX_URLS,
  });
  const siteName = options.siteName?.trim() || readableHost(base);
  return {
    dir: options.dir,
    write: options.write,
    baseUrl: base.href,
    siteHost: base.host,
    siteName,
    perPage,
  };
}

/**
 * Writes the HTML site map while entries stream in. Call {@link add} for every entry (in the order
 * they should be listed), then {@link finish} once.
 *
 * @example
 * const html = new HtmlSitemapBuilder({ dir: tmp, baseUrl: 'https://example.com/' });
 * for await (const entry of entries) await html.add(entry);
 * const files = await html.finish(); // sitemap.html is the last one
 */
export class HtmlSitemapBuilder {
  readonly #o: Resolved;
  readonly #groups = new Map<string, Group>();
  readonly #files: HtmlSitemapFile[] = [];
  readonly #writes = new Set<Promise<void>>();
  #failure: SitemapkitError | undefined;
  #finished = false;

  constructor(options: HtmlSitemapOptions) {
    this.#o = resolveOptions(options);
  }

  /**
   * Adds one link (uses `loc`, `title`, `section` and `lastmod`) and starts writing a page when one
   * fills up. Rejects when the entry cannot be listed or an earlier page could not be written.
   */
  async add(entry: SitemapEntry): Promise<void> {
    if (this.#finished) {
      throw new SitemapkitError('ERR_OPTIONS', 'HtmlSitemapBuilder.add() was called after finish()', {
        hint: 'create a new HtmlSitemapBuilder for another site map',
      });
    }
    if (this.#failure !== undefined) throw this.#failure;
    const checked = toUri(entry.loc);
    if (!checked.ok) {
      throw new SitemapkitError('ERR_INVALID_ENTRY', `HTML site map: ${checked.message}`, {
        where: entry.loc,
        hint: 'pass entries the writer has normalised (absolute http(s) URLs)',
      });
    }
    const section = entry.section ?? '';
    if (section !== '' && !SECTION_NAME.test(section)) {
      throw new SitemapkitError(
        'ERR_INVALID_ENTRY',
        `HTML site map: section ${JSON.stringify(section)} of ${checked.url} must be 1–64 of a-z, 0-9, _ and -`,
        { where: checked.url, hint: 'section names become part of file names' },
      );
    }
    let group = this.#groups.get(section);
    if (group === undefined) {
      group = { section, items: [], pages: 0, links: 0 };
      this.#groups.set(section, group);
    }
    // A full page is written only when the next link arrives: only then is it known to have a next page.
    const started = group.items.length === this.#o.perPage;
    if (started) this.#writePage(group, true);
    const title = entry.title?.trim();
    const text = title !== undefined && title !== '' ? title : readableUrl(checked.url, this.#o.siteHost);
    group.items.push(renderItem(checked.url, text, entry.lastmod));
    group.links += 1;
    // Pages are written while later entries are rendered, so the disk works alongside the caller;
    // at most MAX_WRITES pages wait for it, which keeps memory bounded.
    if (started && this.#writes.size >= MAX_WRITES) await Promise.race(this.#writes);
  }

  /**
   * Writes the pages still being filled and the entry page, and returns every file written, the
   * entry page `sitemap.html` last.
   */
  async finish(): Promise<HtmlSitemapFile[]> {
    if (this.#finished) {
      throw new SitemapkitError('ERR_OPTIONS', 'HtmlSitemapBuilder.finish() was called twice', {
        hint: 'finish() returns every file; keep its result',
      });
    }
    this.#finished = true;
    await this.#settle();
    const groups = [...this.#groups.values()].sort((a, b) =>
      a.section === '' ? -1 : b.section === '' ? 1 : a.section < b.section ? -1 : 1,
    );
    const only = groups.length === 0 ? { section: '', items: [], pages: 0, links: 0 } : groups[0]!;
    if (groups.length <= 1 && only.section === '' && only.pages === 0) {
      // One page of links (or none) and no sections: the entry page is that page.
      await this.#write(ENTRY_PAGE, this.#renderSinglePage(only), only.links);
      return this.#files;
    }
    for (const g of groups) if (g.items.length > 0) this.#writePage(g, false);
    const sectionsHtml: string[] = [];
    let entryLinks = 0;
    for (const g of groups) {
      const top = this.#pageLists(g);
      entryLinks += top.length;
      sectionsHtml.push(this.#renderGroupOnEntry(g, top));
    }
    await this.#settle();
    const total = groups.reduce((n, g) => n + g.links, 0);
    const shell: PageShell = {
      title: `Site map \u2013 ${this.#o.siteName}`,
      heading: `${this.#o.siteName} site map`,
      crumbs: [{ text: 'Site map' }],
      summaryHtml:
        total === 0
          ? 'This site map has no pages yet.'
          : `${plural(total, 'page', 'pages')} of this site` +
            (groups.length > 1 || groups[0]?.section !== ''
              ? ` in ${plural(groups.length, 'part', 'parts')}.`
              : '.'),
      bodyHtml: sectionsHtml.join(''),
    };
    await this.#write(ENTRY_PAGE, renderPage(shell), entryLinks);
    return this.#files;
  }

  #crumbs(group: Group, here: string): Crumb[] {
    const crumbs: Crumb[] = [{ text: 'Site map', href: ENTRY_PAGE }];
    // Pages without a section are written before it is known whether a section called `pages`
    // follows, so they never name their group (see groupLabel): they belong to the site map.
    if (group.section !== '')
      crumbs.push({
        text: groupLabel(group.section, this.#groups),
        href: `${ENTRY_PAGE}#${anchor(group.section)}`,
      });
    crumbs.push({ text: here });
    return crumbs;
  }

  #writePage(group: Group, hasNext: boolean): void {
    const items = group.items;
    group.items = [];
    group.pages += 1;
    const n = group.pages;
    const first = (n - 1) * this.#o.perPage + 1;
    const label = group.section === '' ? 'the site map' : groupLabel(group.section, this.#groups);
    const here = `Page ${formatCount(n)}`;
    const shell: PageShell = {
      title:
        group.section === ''
          ? `Page ${formatCount(n)} \u2013 ${this.#o.siteName} site map`
          : `${label} \u2013 page ${formatCount(n)} \u2013 ${this.#o.siteName} site map`,
      heading:
        group.section === ''
          ? `${this.#o.siteName}: page ${formatCount(n)}`
          : `${label}: page ${formatCount(n)}`,
      crumbs: this.#crumbs(group, here),
      summaryHtml: `Links ${formatCount(first)}\u2013${formatCount(first + items.length - 1)}.`,
      bodyHtml: `<ol class="links" start="${first}">\n${items.join('')}</ol>\n`,
      pager: {
        label: `Pages of ${label}`,
        here,
        ...(n > 1 ? { prev: pageName(group.section, n - 1) } : {}),
        ...(hasNext ? { next: pageName(group.section, n + 1) } : {}),
      },
    };
    this.#write(pageName(group.section, n), renderPage(shell), items.length);
  }

  /**
   * The links the entry page shows for a group: its pages when they fit on one page of links,
   * else lists of pages (written here, level by level) until the top level fits.
   */
  #pageLists(group: Group): Array<{ href: string; text: string }> {
    const per = this.#o.perPage;
    const range = (from: number, to: number): string =>
      from === to ? `Page ${formatCount(from)}` : `Pages ${formatCount(from)}\u2013${formatCount(to)}`;
    // Each level's links, with the range of pages each one covers.
    let level: Array<{ href: string; text: string; from: number; to: number }> = [];
    for (let p = 1; p <= group.pages; p++) {
      level.push({ href: pageName(group.section, p), text: `Page ${formatCount(p)}`, from: p, to: p });
    }
    let depth = 0;
    while (level.length > per) {
      depth += 1;
      const next: typeof level = [];
      for (let i = 0; i < level.length; i += per) {
        const chunk = level.slice(i, i + per);
        const from = chunk[0]!.from;
        const to = chunk[chunk.length - 1]!.to;
        const n = next.length + 1;
        const name = listName(group.section, depth, n);
        const here = range(from, to);
        const count = Math.ceil(level.length / per);
        const shell: PageShell = {
          title: `${groupLabel(group.section, this.#groups)} \u2013 ${here.toLowerCase()} \u2013 ${this.#o.siteName} site map`,
          heading: `${groupLabel(group.section, this.#groups)}: ${here.toLowerCase()}`,
          crumbs: this.#crumbs(group, here),
          summaryHtml: `${plural(chunk.length, 'list', 'lists')} of links.`,
          bodyHtml: `<ul class="pages">\n${chunk.map((c) => `<li><a href="${escapeHtml(c.href)}">${escapeHtml(c.text)}</a></li>\n`).join('')}</ul>\n`,
          pager: {
            label: `Lists of ${groupLabel(group.section, this.#groups)}`,
            here,
            ...(n > 1 ? { prev: listName(group.section, depth, n - 1) } : {}),
            ...(n < count ? { next: listName(group.section, depth, n + 1) } : {}),
          },
        };
        this.#write(name, renderPage(shell), chunk.length);
        next.push({ href: name, text: here, from, to });
      }
      level = next;
    }
    return level;
  }

  #renderGroupOnEntry(group: Group, top: ReadonlyArray<{ href: string; text: string }>): string {
    const id = anchor(group.section);
    const links = top
      .map((t) => `<li><a href="${escapeHtml(t.href)}">${escapeHtml(t.text)}</a></li>\n`)
      .join('');
    return (
      `<section aria-labelledby="${id}">\n<h2 id="${id}">${escapeHtml(groupLabel(group.section, this.#groups))}</h2>\n` +
      `<p class="summary">${plural(group.links, 'link', 'links')} on ${plural(group.pages, 'page', 'pages')}.</p>\n` +
      `<ul class="pages">\n${links}</ul>\n</section>\n`
    );
  }

  #renderSinglePage(group: Group): string {
    const shell: PageShell = {
      title: `Site map \u2013 ${this.#o.siteName}`,
      heading: `${this.#o.siteName} site map`,
      crumbs: [{ text: 'Site map' }],
      summaryHtml:
        group.links === 0
          ? 'This site map has no pages yet.'
          : `${plural(group.links, 'page', 'pages')} of this site.`,
      bodyHtml: group.links === 0 ? '' : `<ol class="links">\n${group.items.join('')}</ol>\n`,
    };
    return renderPage(shell);
  }

  #write(path: string, html: string, links: number): Promise<void> {
    this.#files.push({ path, url: this.#o.baseUrl + path, links });
    const dir = this.#o.dir;
    const target = dir === undefined ? path : join(dir, path);
    const write = this.#o.write;
    const started = write !== undefined ? write(path, html) : toDisk().then((w) => w(target, html));
    const p = started.catch((cause: unknown) => {
      throw new SitemapkitError('ERR_OUTPUT', `could not write the HTML site map page ${target}`, {
        cause,
        where: target,
        hint: 'check that the folder exists, is writable and the disk is not full',
      });
    });
    this.#writes.add(p);
    // Nobody awaits a page write directly: its failure is kept and thrown by the next add() or by
    // finish(), so a missing page is never silent.
    p.then(
      () => this.#writes.delete(p),
      (error: SitemapkitError) => {
        this.#writes.delete(p);
        this.#failure ??= error;
      },
    );
    return p;
  }

  async #settle(): Promise<void> {
    await Promise.allSettled(this.#writes);
    if (this.#failure !== undefined) throw this.#failure;
  }
}
