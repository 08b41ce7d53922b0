import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSitemapText } from '../support/xmllint.js';

export const BASE = 'https://example.com/';

/** A clock that moves one minute a call to `tick()`, so builds have distinct times. */
export function clock(start = Date.UTC(2026, 0, 1)): { now: () => Date; tick: () => void } {
  let t = start;
  return {
    now: () => new Date(t),
    tick: () => {
      t += 60_000;
    },
  };
}

/** Every file of an output folder (temp folders left out), by name. */
export function snapshot(dir: string): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  if (!existsSync(dir)) return m;
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.sitemapkit-tmp-')) continue;
    m.set(name, readFileSync(join(dir, name)));
  }
  return m;
}

export function locsOf(text: string): string[] {
  return [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

/** The index's children and their lastmods (or the only urlset, as one child with no lastmod). */
export function indexChildren(dir: string): Map<string, string | undefined> {
  if (!existsSync(join(dir, 'sitemap.xml'))) return new Map();
  const text = readSitemapText(join(dir, 'sitemap.xml'));
  const out = new Map<string, string | undefined>();
  if (!text.includes('<sitemapindex')) return out;
  for (const m of text.matchAll(/<sitemap><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/sitemap>/g))
    out.set(m[1]!.slice(BASE.length), m[2]);
  return out;
}

/** Every URL the published set lists, through the entry point. */
export function publishedUrls(dir: string): string[] {
  const entry = readSitemapText(join(dir, 'sitemap.xml'));
  if (!entry.includes('<sitemapindex')) return locsOf(entry);
  return [...indexChildren(dir).keys()].flatMap((name) => locsOf(readSitemapText(join(dir, name))));
}

export function urls(from: number, n: number, path = 'p'): Array<{ loc: string }> {
  return Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}${path}/${String(from + i).padStart(4, '0')}`,
  }));
}
