import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../../src/core/normalize.js';
import { entryInputArb } from '../support/arbitraries.js';

const schema = JSON.parse(readFileSync(new URL('../../schema/entry.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

describe('the entry JSON Schema', () => {
  it('accepts every entry the normalisation produces (property)', () => {
    fc.assert(
      fc.property(entryInputArb, (input) => {
        const r = normalizeEntry(input, { scope: { prefix: 'https://example.com/' } });
        expect(r.ok, JSON.stringify(!r.ok && r.errors)).toBe(true);
        if (r.ok) expect(validate(r.entry), JSON.stringify(validate.errors)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('rejects what the normalisation rejects', () => {
    for (const bad of [
      {},
      { loc: 'ftp://example.com/x' },
      { loc: 'https://example.com/', priority: 2 },
      { loc: 'https://example.com/', changefreq: 'Daily' },
      { loc: 'https://example.com/', extra: 1 },
    ]) {
      expect(validate(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('the plain-record fast path', () => {
  it('gives exactly what the full normalisation gives (property)', async () => {
    const { normalizeEntryFully } = await import('../../src/core/normalize.js');
    const scope = { prefix: 'https://example.com/' };
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant(''),
      fc.constantFrom(
        '2024-01-02',
        '2024-02-30',
        '2024-01-02T03:04:05Z',
        '2024-01-02T03:04Z',
        ' 2024-01-02',
        'daily',
        'Daily',
        'x',
      ),
      fc.double({ min: -1, max: 2, noNaN: false }),
      fc.constantFrom(0, 0.05, 0.45, 1, '0.5', Number.NaN),
    );
    const loc = fc.constantFrom(
      'https://example.com/a',
      'https://example.com/a?b=1&c',
      'https://other.example/',
      '/rel',
      'HTTPS://EXAMPLE.com/x',
      5,
    );
    fc.assert(
      fc.property(
        fc.record(
          { loc, lastmod: value, changefreq: value, priority: value, extra: value },
          { requiredKeys: [] },
        ),
        (rec) => {
          expect(normalizeEntry(rec, { scope })).toEqual(normalizeEntryFully(rec, { scope }));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
