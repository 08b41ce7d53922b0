import { describe, expect, it } from 'vitest';
import {
  classifyParam,
  findSessionOrTrackingParams,
  stripSessionAndTrackingParams,
} from '../../src/core/url-params.js';

describe('session and tracking parameters', () => {
  it('classifies by name, case-insensitively', () => {
    expect(classifyParam('PHPSESSID')).toBe('session');
    expect(classifyParam('utm_whatever')).toBe('tracking');
    expect(classifyParam('gclid')).toBe('tracking');
    expect(classifyParam('page')).toBeUndefined();
  });

  it('finds query and path parameters', () => {
    expect(findSessionOrTrackingParams('https://e.com/a;jsessionid=ABC?x=1&utm_source=news&sid=9')).toEqual([
      { name: 'jsessionid', kind: 'session' },
      { name: 'utm_source', kind: 'tracking' },
      { name: 'sid', kind: 'session' },
    ]);
  });

  it('strips only them, keeping the other parameters exactly as written', () => {
    expect(
      stripSessionAndTrackingParams('https://e.com/a;jsessionid=ABC?b=2&utm_source=x&a=%20z&fbclid=1'),
    ).toBe('https://e.com/a?b=2&a=%20z');
    expect(stripSessionAndTrackingParams('https://e.com/?utm_medium=x')).toBe('https://e.com/');
    expect(stripSessionAndTrackingParams('https://e.com/?q=a+b&%zz=1')).toBe('https://e.com/?q=a+b&%zz=1');
  });
});
