/**
 * The checked lane's batches (`writer/checked.ts`): what the check stage writes on one thread is
 * what the main thread reads back on the other, record by record. A property over generated
 * records (good, invalid, duplicate, with warnings, with extensions and non-ASCII text), batches
 * cut anywhere, records larger than a batch's buffer, and buffers handed back and filled again.
 * The whole lane against the one-thread path is `test/sources/jsonl-thread.test.ts`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../../src/core/normalize.js';
import {
  BATCH_BYTES,
  CheckedReader,
  type CheckedRecord,
  CheckedWriter,
  type CheckRequest,
  checkRecord,
  checkUnreadable,
  emptyChecked,
} from '../../src/writer/checked.js';
import { Dedupe } from '../../src/writer/dedupe.js';
import { entryInputArb } from '../support/arbitraries.js';

const BASE = 'https://example.com/';
const request: CheckRequest = {
  scope: { prefix: BASE, allowHosts: [] },
  legacy: false,
  dropFields: false,
  dedupe: true,
};

type Item = { unreadable: string } | { record: unknown };

const itemArb: fc.Arbitrary<Item> = fc.oneof(
  { weight: 5, arbitrary: entryInputArb.map((record) => ({ record })) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        n: fc.integer({ min: 0, max: 4 }),
        lastmod: fc.constantFrom(undefined, '2024-03-05', '2024-03-05T10:00:00+01:00', 'yesterday'),
        changefreq: fc.constantFrom(undefined, 'daily', 'never', 'Weekly', 'sometimes'),
        priority: fc.constantFrom(undefined, 0, 0.5, 1, 0.25, 7, -0),
        extra: fc.constantFrom({}, { colour: 'red' }, { section: 'blog' }),
      })
      .map(({ n, lastmod, changefreq, priority, extra }) => ({
        record: JSON.parse(
          JSON.stringify({ loc: `${BASE}p/${n}?a=1&b=caf\u00e9`, lastmod, changefreq, priority, ...extra }),
        ),
      })),
  },
  // Larger than a batch's buffer.
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 3 }).map((k) => ({
      record: {
        loc: `${BASE}big/${k}`,
        news: {
          publication: { name: 'Caf\u00e9', language: 'en' },
          publication_date: '2024-03-05',
          title: '\u4e2d\u00e9x'.repeat((k * BATCH_BYTES) / 3),
        },
      },
    })),
  },
  {
    weight: 1,
    arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map((unreadable) => ({ unreadable })),
  },
  { weight: 1, arbitrary: fc.constantFrom({ record: null }, { record: [1] }, { record: { loc: 42 } }) },
);

/** What the intake on the writer's thread makes of a record, in the reader's terms. */
function expected(item: Item, line: number, dedupe: Dedupe): CheckedRecord {
  const out = emptyChecked();
  out.line = line;
  if ('unreadable' in item) {
    out.errors = [{ code: 'record-unreadable', field: '', message: item.unreadable }];
    return out;
  }
  const r = normalizeEntry(item.record, request);
  if (r.warnings.length > 0) {
    out.warnings = JSON.parse(JSON.stringify(r.warnings));
    out.warningLoc = r.ok ? r.entry.loc : undefined;
  }
  if (!r.ok) {
    const loc = (item.record as { loc?: unknown } | null)?.loc;
    out.errors = JSON.parse(JSON.stringify(r.errors));
    out.errorLoc = typeof loc === 'string' ? loc : undefined;
    return out;
  }
  const duplicate = dedupe.add(r.entry.loc);
  if (duplicate !== undefined) {
    out.errors = [duplicate];
    out.errorLoc = r.entry.loc;
    return out;
  }
  out.entry = r.entry;
  return out;
}

describe('the checked lane: records written on one thread, read on the other', () => {
  it('reads back every record as written, across batches and reused buffers', () => {
    fc.assert(
      fc.property(
        fc.array(itemArb, { maxLength: 40 }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        (items, cuts) => {
          const writer = new CheckedWriter();
          const checkSet = new Dedupe();
          const batches: Array<{ buffer: ArrayBuffer; length: number }> = [];
          items.forEach((item, i) => {
            if ('unreadable' in item) checkUnreadable(item.unreadable, i + 1, writer);
            else checkRecord(item.record, i + 1, request, checkSet, writer);
            if (cuts[i] === true) batches.push(writer.take());
          });
          batches.push(writer.take());
          const got: CheckedRecord[] = [];
          for (const b of batches) {
            const reader = new CheckedReader(new Uint8Array(b.buffer, 0, b.length));
            for (let r = emptyChecked(); reader.next(r); r = emptyChecked()) got.push(r);
            // Handed back: later batches are written over it.
            writer.reuse(b.buffer);
          }
          const expectSet = new Dedupe();
          expect(got).toStrictEqual(items.map((item, i) => expected(item, i + 1, expectSet)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps a priority of -0 and every changefreq', () => {
    const writer = new CheckedWriter();
    const freqs = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'];
    for (const [i, changefreq] of freqs.entries()) {
      checkRecord({ loc: `${BASE}${i}`, changefreq, priority: -0 }, i + 1, request, undefined, writer);
    }
    const b = writer.take();
    const reader = new CheckedReader(new Uint8Array(b.buffer, 0, b.length));
    const seen: unknown[] = [];
    for (const r = emptyChecked(); reader.next(r); ) seen.push(r.entry);
    expect(seen).toStrictEqual(
      freqs.map((changefreq, i) => ({ loc: `${BASE}${i}`, changefreq, priority: -0 })),
    );
  });
});
