import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_BYTES } from '../../src/core/limits.js';
import { INFLATE_CHUNK } from '../../src/parser/decode.js';
import type { SitemapInfo } from '../../src/parser/types.js';
import { ensureBuilt } from './build.js';
import { SAMPLES } from './helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/parse-child.mjs', import.meta.url));

interface ChildReport {
  entries: number;
  codes: string[];
  sitemaps: SitemapInfo[];
  maxRssBytes: number;
}

/** Parses a file in a fresh Node with a 64 MB old-space heap: a runaway allocation kills it. */
function parseInChild(path: string, maxBytes?: number): ChildReport {
  const args = [
    '--max-old-space-size=64',
    CHILD,
    path,
    ...(maxBytes === undefined ? [] : [String(maxBytes)]),
  ];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ChildReport;
}

const HOSTILE: Record<string, { entries: number; codes: string[] }> = {
  '50001-urls.xml.gz': { entries: 50_001, codes: ['too-many-urls'] },
  '50MiB-plus-1.xml.gz': { entries: 1, codes: ['sitemap-too-large'] },
  'billion-laughs.xml': { entries: 0, codes: ['xml-doctype'] },
  'deep-nesting.xml.gz': { entries: 0, codes: ['element-unknown', 'xml-too-deep'] },
  'double-gzipped.xml.gz': { entries: 0, codes: ['gzip-nested'] },
  'exactly-50MiB.xml.gz': { entries: 1, codes: [] },
  'external-dtd.xml': { entries: 0, codes: ['xml-doctype'] },
  'not-really-gzipped.xml.gz': { entries: 1, codes: [] },
  'oversize-60MiB.xml.gz': { entries: 1, codes: ['sitemap-too-large'] },
  'quadratic-blowup.xml.gz': { entries: 0, codes: ['xml-doctype'] },
  'truncated.xml.gz': { entries: 0, codes: ['gzip-invalid'] },
  'xxe-local-file.xml': { entries: 0, codes: ['xml-doctype'] },
  'xxe-parameter-entity.xml': { entries: 0, codes: ['xml-doctype'] },
  'xxe-remote.xml': { entries: 0, codes: ['xml-doctype'] },
};

describe('hostile samples in a child process with --max-old-space-size=64', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it.each(Object.entries(HOSTILE))('%s', (name, expected) => {
    const r = parseInChild(join(SAMPLES, 'hostile', name));
    expect(r.entries).toBe(expected.entries);
    expect(r.codes).toEqual(expected.codes);
    const info = r.sitemaps[0]!;
    expect(info.bytes).toBeLessThanOrEqual(MAX_BYTES);
    // Inflation stops with the parser: never beyond the cap plus one chunk.
    expect(info.inflatedBytes).toBeLessThanOrEqual(MAX_BYTES + INFLATE_CHUNK);
    expect(r.maxRssBytes).toBeLessThan(200 * 1024 * 1024);
  });

  it('a 62.9 MB bomb inflates no further than a lower cap plus one chunk', () => {
    const cap = 1_000_000;
    const r = parseInChild(join(SAMPLES, 'hostile', 'oversize-60MiB.xml.gz'), cap);
    const info = r.sitemaps[0]!;
    expect(r.codes).toEqual(['sitemap-too-large']);
    expect(info.bytes).toBe(cap);
    expect(info.inflatedBytes).toBeGreaterThan(cap);
    expect(info.inflatedBytes).toBeLessThanOrEqual(cap + INFLATE_CHUNK);
  });

  it('reads exactly 50 MiB in full, and one byte more is refused', () => {
    const exact = parseInChild(join(SAMPLES, 'hostile', 'exactly-50MiB.xml.gz')).sitemaps[0]!;
    expect(exact.bytes).toBe(MAX_BYTES);
    expect(exact.inflatedBytes).toBe(MAX_BYTES);
    const over = parseInChild(join(SAMPLES, 'hostile', '50MiB-plus-1.xml.gz')).sitemaps[0]!;
    expect(over.bytes).toBe(MAX_BYTES);
  });
});
