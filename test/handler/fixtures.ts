/** Sources and a real HTTP client for the handler's tests. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import type { PagedSource } from '../../src/handler/types.js';
import { tempDir } from '../support/tmp.js';
import { xmllint } from '../support/xmllint.js';

export const BASE = 'https://example.com/';

export function entry(i: number, section = ''): SitemapEntryInput {
  return {
    loc: `${BASE}${section === '' ? '' : `${section}/`}page-${i}`,
    lastmod: new Date(Date.UTC(2024, 0, 1 + (i % 300))).toISOString().slice(0, 10),
    images: i % 2 === 0 ? [{ loc: `${BASE}img/${i}.png` }] : undefined,
  } as SitemapEntryInput;
}

/** A paged source over `count` generated entries per section, counting the pages it is asked for. */
export function pagedSource(counts: Record<string, number>): PagedSource & { pages: string[] } {
  const pages: string[] = [];
  const sections = Object.keys(counts);
  return {
    pages,
    ...(sections.length === 1 && sections[0] === '' ? {} : { sections }),
    count: (section) => counts[section] ?? 0,
    *page(index, size, section) {
      pages.push(`${section}:${index}`);
      const end = Math.min((index + 1) * size, counts[section] ?? 0);
      for (let i = index * size; i < end; i++) yield entry(i, section);
    },
  } as PagedSource & { pages: string[] };
}

export interface Got {
  status: number;
  headers: Record<string, string>;
  /** The body as sent. */
  raw: Buffer;
  /** The body with its Content-Encoding undone. */
  text: string;
}

/** One request with undici, which hands back the body as sent (no decoding). */
export async function get(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<Got> {
  const r = await request(origin + path, { method, headers });
  const raw = Buffer.from(await r.body.arrayBuffer());
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers)) h[k] = Array.isArray(v) ? v.join(', ') : String(v);
  const enc = h['content-encoding'];
  const plain =
    raw.length === 0
      ? raw
      : enc === 'gzip'
        ? gunzipSync(raw)
        : enc === 'br'
          ? brotliDecompressSync(raw)
          : raw;
  return { status: r.statusCode, headers: h, raw, text: plain.toString('utf8') };
}

/** xmllint against the protocol's XSDs; returns its complaint, or '' when the file is valid. */
export function xsdProblems(name: string, text: string): string {
  const file = join(tempDir('sk-handler'), name);
  writeFileSync(file, text);
  const r = xmllint(file);
  return r.ok ? '' : r.output;
}
