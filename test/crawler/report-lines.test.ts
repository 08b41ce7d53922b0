// The report's lines are built from the state's rows as arrays (report.ts, issue 16 item 5): the
// same bytes as the record-based path they replaced, which made an object a URL and handed it to
// JSON.stringify. The slow path is written out here from the documented columns (docs/crawl.md).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvLine, jsonLine } from '../../src/crawler/report.js';
import { jsOnlyLinks, renderDifferences, renderedCell } from '../../src/crawler/report-render.js';

/** The row's columns in REPORT_CELLS_SQL's order, as SQLite hands them over. */
type Cells = [
  url: string,
  depth: number,
  status: number | null,
  verdict: string | null,
  reason: string | null,
  target: string | null,
  contentType: string | null,
  title: string | null,
  lastmod: string | null,
  source: string,
  via: string | null,
  inlinks: number,
  bytes: number | null,
  ms: number | null,
  attempts: number,
  canonical: string | null,
  descriptionLength: number | null,
  rendered: string | null,
  changedAt: string | null,
  change: string | null,
];

/** What the report wrote before: one object a URL, its keys in the documented order. */
function slowObject(c: Cells): Record<string, unknown> {
  return {
    url: c[0],
    depth: c[1],
    status: c[2],
    verdict: c[3] ?? 'queued',
    reason: c[4],
    target: c[5],
    contentType: c[6],
    title: c[7],
    lastmod: c[8],
    source: c[9],
    via: c[10],
    inlinks: c[11],
    bytes: c[12],
    ms: c[13],
    attempts: c[14],
    canonical: c[15],
    descriptionLength: c[16],
    rendered: renderedCell(c[17]),
    jsOnlyLinks: jsOnlyLinks(c[17]),
    renderDifferences: renderDifferences(c[17]),
    changedAt: c[18],
    change: c[19],
  };
}

// Any text, formula triggers, quotes, separators, control characters and astral characters.
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '=SUM(A1)',
    '+1',
    '-x',
    '@a',
    '\tx',
    'a,b',
    'say "hi"',
    'line\r\nbreak',
    '',
    '👋',
    '\u2028',
  ),
);
const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null });
const note = maybe(
  fc
    .oneof(
      fc.record({
        rendered: fc.constant('yes'),
        jsOnly: fc.array(text, { maxLength: 3 }),
        jsOnlyCount: fc.nat(5),
        differences: fc.array(text, { maxLength: 2 }),
      }),
      fc.record({ rendered: fc.constant('failed'), error: text }),
    )
    .map((n) => JSON.stringify(n)),
);
const cells: fc.Arbitrary<Cells> = fc.tuple(
  text,
  fc.nat(40),
  maybe(fc.integer({ min: 100, max: 599 })),
  maybe(fc.constantFrom('listed', 'broken', 'redirect', 'noindex', 'too-deep')),
  maybe(text),
  maybe(text),
  maybe(text),
  maybe(text),
  maybe(text),
  fc.constantFrom('start', 'link', 'sitemap'),
  maybe(text),
  fc.nat(2_000_000),
  maybe(fc.nat(10_000_000)),
  maybe(fc.nat(100_000)),
  fc.nat(5),
  maybe(text),
  maybe(fc.nat(400)),
  note,
  maybe(text),
  maybe(fc.constantFrom('added', 'changed', 'removed', 'kept', 'unchanged')),
);

describe('report lines built from arrays', () => {
  it('a urls.jsonl line is JSON.stringify of the record-based object, byte for byte', () => {
    fc.assert(
      fc.property(cells, (c) => {
        expect(jsonLine(c)).toBe(JSON.stringify(slowObject(c)));
      }),
      { numRuns: 2000 },
    );
  });

  it('a urls.csv line is the record-based fields joined, byte for byte', () => {
    fc.assert(
      fc.property(cells, (c) => {
        const o = slowObject(c);
        const fields = Object.keys(o).slice(0, 20);
        expect(csvLine(c)).toBe(
          fields.map((k) => csvField(o[k] as Parameters<typeof csvField>[0])).join(','),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
