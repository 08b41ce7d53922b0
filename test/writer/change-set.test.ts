import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChangeRecord, changeSetLine, parseChangeSetLine } from '../../src/writer/change-set.js';

const url = fc.webUrl({ withQueryParameters: true });
const at = fc.constant('2026-11-26T08:00:00Z');
const record: fc.Arbitrary<ChangeRecord> = fc.oneof(
  fc.record(
    {
      kind: fc.constant('url' as const),
      change: fc.constantFrom('added' as const, 'changed' as const, 'removed' as const),
      loc: url,
      lastmod: fc.constant('2026-01-02'),
      at,
    },
    { requiredKeys: ['kind', 'change', 'loc', 'at'] },
  ),
  fc.record(
    {
      kind: fc.constant('file' as const),
      change: fc.constantFrom('added' as const, 'rewritten' as const, 'kept' as const, 'deleted' as const),
      path: fc.constantFrom('sitemap.xml', 'sitemap-00001.xml.gz'),
      url,
      urls: fc.nat(50_000),
    },
    { requiredKeys: ['kind', 'change', 'path', 'url'] },
  ),
);

describe('change set lines', () => {
  it('read back what was written, one line each', () => {
    fc.assert(
      fc.property(record, (r) => {
        const line = changeSetLine(r);
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toContain('\n');
        expect(parseChangeSetLine(line)).toEqual(r);
      }),
    );
  });

  it('say what is wrong with a line that is not a change', () => {
    expect(parseChangeSetLine('')).toBeUndefined();
    expect(parseChangeSetLine('https://example.com/')).toMatch(/not JSON/);
    expect(parseChangeSetLine('[1]')).toMatch(/not a JSON object/);
    expect(parseChangeSetLine('{"kind":"url","change":"gone","loc":"x","at":"t"}')).toMatch(
      /added, changed or removed/,
    );
    expect(parseChangeSetLine('{"kind":"url","change":"added","at":"t"}')).toMatch(/no "loc"/);
    expect(parseChangeSetLine('{"loc":"https://example.com/"}')).toMatch(/neither "url" nor "file"/);
    expect(parseChangeSetLine('{"kind":"file","change":"kept","path":"a"}')).toMatch(/no "path" or "url"/);
  });
});
