import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { SitemapParser } from '../../src/parser/core.js';
import type { SitemapItem, SitemapParserOptions } from '../../src/parser/types.js';

export const SAMPLES = new URL('../fixtures/spec/samples/', import.meta.url).pathname;

/** Every sample file, as `group/name`. */
export function sampleFiles(): string[] {
  const out: string[] = [];
  for (const group of ['valid', 'invalid', 'discrepancy', 'hostile']) {
    for (const f of readdirSync(join(SAMPLES, group)).sort()) {
      if (f.endsWith('.xml') || f.endsWith('.gz')) out.push(`${group}/${f}`);
    }
  }
  return out;
}

/** A sample's bytes as the parser core sees them: gzip undone once, capped so bombs stay small. */
export function sampleBytes(name: string, cap = 64 * 1024 * 1024): Uint8Array {
  const raw = readFileSync(join(SAMPLES, name));
  if (raw[0] !== 0x1f || raw[1] !== 0x8b) return raw;
  // A sync flush keeps what a truncated stream holds, as the streaming decode layer does.
  return gunzipSync(raw, { maxOutputLength: cap, finishFlush: constants.Z_SYNC_FLUSH });
}

export interface CoreResult {
  items: SitemapItem[];
  diagnostics: Diagnostic[];
  format: string | undefined;
}

type CoreOptions = Omit<SitemapParserOptions, 'onItem' | 'onDiagnostic'>;

/** Feeds `bytes` to the push parser in chunks of the given sizes (cycled); whole when none. */
export function parseCore(
  bytes: Uint8Array | string,
  options: CoreOptions = {},
  sizes: readonly number[] = [],
): CoreResult {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const items: SitemapItem[] = [];
  const diagnostics: Diagnostic[] = [];
  const p = new SitemapParser({
    sitemap: 'doc',
    ...options,
    onItem: (i) => items.push(i),
    onDiagnostic: (d) => diagnostics.push(d),
  });
  if (sizes.length === 0) p.write(data);
  else {
    let at = 0;
    let k = 0;
    while (at < data.length && !p.done) {
      const n = sizes[k++ % sizes.length]!;
      p.write(data.subarray(at, at + n));
      at += n;
    }
  }
  p.end();
  return { items, diagnostics, format: p.format };
}

export function codes(diagnostics: readonly Diagnostic[]): string[] {
  return [...new Set(diagnostics.map((d) => d.code))].sort();
}

export const URLSET_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0">\n';

export function urlset(body: string): string {
  return `${URLSET_OPEN}${body}\n</urlset>\n`;
}

/** A urlset of these locs, one `<url>` a line (as a server would serve it). */
export function urlsetOf(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc></url>`).join('\n')}\n</urlset>\n`;
}

/** A sitemap index of these locs. */
export function indexOf(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
}
