/**
 * Stable shards (pure): which file of its section a URL lives in. A URL keeps its file from build
 * to build; a new one fills the last file of its section, then a file with room left by removals,
 * then a new file. A file never passes the protocol's budgets (URLs, bytes, news entries): an
 * entry that grows past its file's room moves out. When a section's files fall so far below
 * capacity that it has more than twice the files it needs, the emptiest ones are merged away.
 */
import type { FileRow } from './backend.js';

export interface ShardBudget {
  maxUrls: number;
  /** Bytes of entries a file may hold (its budget minus the header and footer reserve). */
  maxBytes: number;
  maxNews: number;
}

export class Shards {
  readonly budget: ShardBudget;
  readonly #gen: number;
  readonly #bySection = new Map<string, FileRow[]>();
  readonly #deleted: number[] = [];
  readonly #touched = new Set<FileRow>();
  #nextId: number;

  constructor(files: readonly FileRow[], budget: ShardBudget, gen: number) {
    this.budget = budget;
    this.#gen = gen;
    let max = 0;
    for (const f of files) {
      const copy = { ...f };
      this.#section(f.section).push(copy);
      max = Math.max(max, f.id);
    }
    for (const list of this.#bySection.values()) list.sort((a, b) => a.num - b.num);
    this.#nextId = max + 1;
  }

  #section(section: string): FileRow[] {
    let list = this.#bySection.get(section);
    if (list === undefined) {
      list = [];
      this.#bySection.set(section, list);
    }
    return list;
  }

  fits(f: FileRow, len: number, news: number): boolean {
    const b = this.budget;
    return f.urls < b.maxUrls && f.bytes + len <= b.maxBytes && (news === 0 || f.news < b.maxNews);
  }

  get(id: number): FileRow | undefined {
    for (const list of this.#bySection.values()) for (const f of list) if (f.id === id) return f;
    return undefined;
  }

  /** The file a new (or moving) entry goes into, counted in; `except` are files it may not use. */
  place(section: string, len: number, news: number, except?: ReadonlySet<number>): FileRow {
    const list = this.#section(section);
    const usable = (f: FileRow): boolean => !except?.has(f.id) && this.fits(f, len, news);
    const last = list.at(-1);
    let target = last !== undefined && usable(last) ? last : list.find(usable);
    if (target === undefined) {
      target = {
        id: this.#nextId++,
        section,
        num: (last?.num ?? 0) + 1,
        urls: 0,
        bytes: 0,
        news: 0,
        changed: this.#gen,
      };
      list.push(target);
    }
    this.#count(target, 1, len, news);
    return target;
  }

  /** An entry leaves its file. */
  release(f: FileRow, len: number, news: number): void {
    this.#count(f, -1, -len, -news);
  }

  /**
   * An entry of `f` changes size (or news) in place: true when it still fits (counted), false when
   * it must move (nothing counted).
   */
  resize(f: FileRow, oldLen: number, oldNews: number, len: number, news: number): boolean {
    const b = this.budget;
    const bytes = f.bytes - oldLen + len;
    const n = f.news - oldNews + news;
    if (bytes > b.maxBytes || n > b.maxNews) return false;
    f.bytes = bytes;
    f.news = n;
    f.changed = this.#gen;
    this.#touched.add(f);
    return true;
  }

  /** The file's content changes without a change of size (a new lastmod of the same length). */
  touch(f: FileRow): void {
    f.changed = this.#gen;
    this.#touched.add(f);
  }

  #count(f: FileRow, urls: number, bytes: number, news: number): void {
    f.urls += urls;
    f.bytes += bytes;
    f.news += news;
    f.changed = this.#gen;
    this.#touched.add(f);
  }

  /** The fewest files a section could hold its entries in. */
  minimum(section: string): number {
    const list = this.#bySection.get(section) ?? [];
    let urls = 0;
    let bytes = 0;
    let news = 0;
    for (const f of list) {
      urls += f.urls;
      bytes += f.bytes;
      news += f.news;
    }
    if (urls === 0) return 0;
    const b = this.budget;
    return Math.max(
      1,
      Math.ceil(urls / b.maxUrls),
      Math.ceil(bytes / b.maxBytes),
      Math.ceil(news / b.maxNews),
    );
  }

  sections(): string[] {
    return [...this.#bySection.keys()];
  }

  files(section: string): readonly FileRow[] {
    return this.#bySection.get(section) ?? [];
  }

  /**
   * The next file to merge away in `section`, or undefined when its file count is within twice the
   * minimum: the one with the fewest URLs (the last of those, so earlier names stay).
   */
  mergeCandidate(section: string): FileRow | undefined {
    const list = this.#bySection.get(section) ?? [];
    if (list.length <= 2 * this.minimum(section)) return undefined;
    let pick: FileRow | undefined;
    for (const f of list) if (pick === undefined || f.urls <= pick.urls) pick = f;
    return pick;
  }

  /** Drops a file (empty, or merged away). */
  drop(f: FileRow): void {
    const list = this.#section(f.section);
    const i = list.indexOf(f);
    if (i !== -1) list.splice(i, 1);
    this.#touched.delete(f);
    this.#deleted.push(f.id);
  }

  /** Drops every empty file. */
  dropEmpty(): void {
    for (const list of [...this.#bySection.values()])
      for (const f of [...list]) if (f.urls === 0) this.drop(f);
  }

  /** What to write back: the files changed, and the ids of those dropped. */
  changes(): { rows: FileRow[]; deleted: number[] } {
    return { rows: [...this.#touched], deleted: [...this.#deleted] };
  }
}
