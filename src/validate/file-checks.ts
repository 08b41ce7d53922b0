/**
 * Rules about one sitemap as a whole, decided when the parser has read it: lastmods that do not
 * track changes (all identical, or all the file's generation time), more than 1,000 news entries,
 * and once-per-file notes (priority, changefreq, legacy tags) that would flood if given per URL.
 */
import { MAX_NEWS_PER_FILE } from '../core/limits.js';
import type { LastmodInstant } from './values.js';

/** Fewer lastmods than this say nothing about how a generator works. */
export const MIN_LASTMODS = 10;
/** How far lastmods may spread, and lie from the generation time, to count as "stamped now". */
const STAMP_WINDOW_MS = 10 * 60_000;
const ZONE_SLACK_MS = 14 * 3_600_000;

/** Where something was first seen in a file. */
export interface FirstSeen {
  count: number;
  line: number | undefined;
  url: string;
}

/** A finding about a whole file: code, message, and the first place it applies to. */
export interface FileFinding {
  code: string;
  message: string;
  line?: number;
  url?: string;
}

/** What is counted while a file is read. */
export class FileTally {
  entries = 0;
  lastmods = 0;
  firstLastmod: string | undefined;
  identical = true;
  dateOnly = true;
  minMs: number = Number.POSITIVE_INFINITY;
  maxMs: number = Number.NEGATIVE_INFINITY;
  news = 0;
  priority: FirstSeen | undefined;
  changefreq: FirstSeen | undefined;
  readonly legacy: Map<string, FirstSeen> = new Map();

  addLastmod(value: string, t: LastmodInstant | undefined): void {
    this.lastmods++;
    if (this.firstLastmod === undefined) this.firstLastmod = value;
    else if (value !== this.firstLastmod) this.identical = false;
    if (t === undefined) return;
    if (!t.dateOnly) this.dateOnly = false;
    if (t.ms < this.minMs) this.minMs = t.ms;
    if (t.ms > this.maxMs) this.maxMs = t.ms;
  }

  static see(prev: FirstSeen | undefined, line: number | undefined, url: string): FirstSeen {
    if (prev === undefined) return { count: 1, line, url };
    prev.count++;
    return prev;
  }
}

function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function iso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/**
 * Whether the lastmods were stamped at generation time: they all lie within a few minutes of one
 * another and of one of the candidate times (the file's modification time, its Last-Modified or
 * Date header, the index's lastmod for it); date-only lastmods are all that time's date.
 */
export function stampedAt(
  tally: FileTally,
  candidates: ReadonlyArray<{ ms: number; what: string }>,
): { ms: number; what: string } | undefined {
  if (tally.lastmods < MIN_LASTMODS || tally.minMs > tally.maxMs) return undefined;
  for (const c of candidates) {
    if (tally.dateOnly) {
      if (!tally.identical) return undefined;
      const dates = [utcDate(c.ms - ZONE_SLACK_MS), utcDate(c.ms), utcDate(c.ms + ZONE_SLACK_MS)];
      if (dates.includes(utcDate(tally.minMs))) return c;
    } else if (
      tally.maxMs - tally.minMs <= STAMP_WINDOW_MS &&
      Math.abs(tally.maxMs - c.ms) <= STAMP_WINDOW_MS
    ) {
      return c;
    }
  }
  return undefined;
}

/** The findings about one finished file. */
export function fileFindings(
  tally: FileTally,
  candidates: ReadonlyArray<{ ms: number; what: string }>,
): FileFinding[] {
  const out: FileFinding[] = [];
  const stamp = stampedAt(tally, candidates);
  if (stamp !== undefined) {
    out.push({
      code: 'lastmod-generation-time',
      message: `all ${tally.lastmods.toLocaleString('en-US')} lastmods are the time the file was generated (${iso(tally.minMs)}${tally.maxMs > tally.minMs ? ` to ${iso(tally.maxMs)}` : ''}; ${stamp.what} ${iso(stamp.ms)})`,
    });
  } else if (tally.identical && tally.lastmods >= MIN_LASTMODS) {
    out.push({
      code: 'lastmod-identical',
      message: `all ${tally.lastmods.toLocaleString('en-US')} lastmods are ${tally.firstLastmod}`,
    });
  }
  if (tally.news > MAX_NEWS_PER_FILE) {
    out.push({
      code: 'news-too-many',
      message: `${tally.news.toLocaleString('en-US')} news entries; a news sitemap may hold at most ${MAX_NEWS_PER_FILE.toLocaleString('en-US')}`,
    });
  }
  const note = (code: string, what: string, seen: FirstSeen | undefined): void => {
    if (seen === undefined) return;
    const f: FileFinding = {
      code,
      message: `${seen.count.toLocaleString('en-US')} ${seen.count === 1 ? 'URL carries' : 'URLs carry'} <${what}>, which Google ignores`,
      url: seen.url,
    };
    if (seen.line !== undefined) f.line = seen.line;
    out.push(f);
  };
  note('priority-ignored', 'priority', tally.priority);
  note('changefreq-ignored', 'changefreq', tally.changefreq);
  for (const [tag, seen] of tally.legacy) {
    const f: FileFinding = {
      code: 'legacy-tag',
      message: `${tag} is used ${seen.count.toLocaleString('en-US')} time${seen.count === 1 ? '' : 's'}; Google dropped it in 2022 and ignores it`,
      url: seen.url,
    };
    if (seen.line !== undefined) f.line = seen.line;
    out.push(f);
  }
  return out;
}
