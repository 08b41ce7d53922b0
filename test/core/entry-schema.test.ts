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
