import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { duration, headerRecord, httpUrl, wholeNumber } from '../../src/core/checks.js';
import { isSitemapkitError } from '../../src/core/errors.js';

function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isSitemapkitError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('did not throw');
}

describe('wholeNumber', () => {
  it('gives the fallback for undefined and the value inside the range', () => {
    expect(wholeNumber('n', undefined, 7)).toBe(7);
    expect(wholeNumber('n', 3, 7, { min: 1, max: 5 })).toBe(3);
    expect(wholeNumber('n', Number.POSITIVE_INFINITY, 7, { unbounded: true })).toBe(Number.POSITIVE_INFINITY);
  });

  it('refuses fractions, strings, NaN, out-of-range values and Infinity unless unbounded, naming the option', () => {
    for (const v of [1.5, '3', Number.NaN, -1, 6, Number.POSITIVE_INFINITY]) {
      const e = thrown(() => wholeNumber('maxPages', v, 7, { min: 0, max: 5 }));
      expect(e.code).toBe('ERR_OPTIONS');
      expect(e.message).toMatch(/^maxPages must be a whole number from 0 to 5, not /);
    }
    expect(thrown(() => wholeNumber('n', 0, 1, { min: 1 })).message).toBe(
      'n must be a whole number of at least 1, not 0',
    );
  });

  it('accepts exactly the integers of the range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50, max: 50 }),
        fc.integer({ min: -50, max: 50 }),
        fc.integer(),
        (a, b, v) => {
          const [min, max] = a <= b ? [a, b] : [b, a];
          const inside = v >= min && v <= max;
          let ok = true;
          try {
            wholeNumber('n', v, 0, { min, max });
          } catch {
            ok = false;
          }
          return ok === inside;
        },
      ),
    );
  });
});

describe('duration', () => {
  it('reads a bare number in the option unit and strings with units', () => {
    expect(duration('timeout', 500, 1, { unit: 'ms' })).toBe(500);
    expect(duration('timeout', '500', 1, { unit: 'ms' })).toBe(500);
    expect(duration('delay', 2, 1, { unit: 's' })).toBe(2000);
    expect(duration('delay', '2', 1, { unit: 's' })).toBe(2000);
    expect(duration('t', '500ms', 1, { unit: 's' })).toBe(500);
    expect(duration('t', '30s', 1, { unit: 'ms' })).toBe(30_000);
    expect(duration('t', '2m', 1, { unit: 'ms' })).toBe(120_000);
    expect(duration('t', '1h', 1, { unit: 'ms' })).toBe(3_600_000);
    expect(duration('t', '1.5s', 1, { unit: 'ms' })).toBe(1500);
    expect(duration('t', undefined, 42, { unit: 'ms' })).toBe(42);
  });

  it('refuses what is not a duration, and what is outside the range, in one sentence', () => {
    for (const v of ['fast', '-1s', '10 minutes', '', -5, Number.NaN, {}]) {
      expect(thrown(() => duration('--timeout', v, 1, { unit: 'ms' })).message).toMatch(
        /^--timeout must be a duration such as 500ms, 30s or 2m \(a bare number is in milliseconds\), not /,
      );
    }
    expect(thrown(() => duration('--timeout', '10ms', 1, { unit: 'ms', minMs: 100 })).message).toBe(
      '--timeout must be at least 100 ms, not "10ms"',
    );
  });
});

describe('httpUrl', () => {
  it('takes http and https URLs and refuses the rest', () => {
    expect(httpUrl('start', 'https://example.com/a').href).toBe('https://example.com/a');
    expect(thrown(() => httpUrl('start', 'example.com')).message).toBe(
      'start "example.com" is not an absolute URL',
    );
    expect(thrown(() => httpUrl('start', 'ftp://example.com/')).message).toBe(
      'start "ftp://example.com/" is not an http(s) URL',
    );
    expect(thrown(() => httpUrl('start', 3)).code).toBe('ERR_OPTIONS');
  });
});

describe('headerRecord', () => {
  it('lower-cases names and keeps values', () => {
    expect(headerRecord('headers', { 'X-Token': 'a b', Accept: 'text/html' })).toEqual({
      'x-token': 'a b',
      accept: 'text/html',
    });
    expect(headerRecord('headers', undefined)).toEqual({});
  });

  it('refuses bad names and values that would split a request (CR, LF, NUL)', () => {
    expect(thrown(() => headerRecord('headers', { 'bad name': 'x' })).message).toBe(
      'headers: "bad name" is not a valid HTTP header name',
    );
    for (const v of ['a\r\nX-Evil: 1', 'a\nb', 'a\0b']) {
      expect(thrown(() => headerRecord('headers', { 'X-A': v })).message).toMatch(
        /holds a line break or NUL/,
      );
    }
    expect(thrown(() => headerRecord('headers', { 'X-A': 1 })).code).toBe('ERR_OPTIONS');
    expect(thrown(() => headerRecord('headers', ['a'])).code).toBe('ERR_OPTIONS');
  });
});
