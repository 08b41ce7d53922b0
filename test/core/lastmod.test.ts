import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isFinalLastmod, isW3cDatetime, isXsdLastmod, normalizeLastmod } from '../../src/core/lastmod.js';
import { SPEC_DIR } from '../support/xmllint.js';

const cases = JSON.parse(readFileSync(`${SPEC_DIR}data/lastmod-cases.json`, 'utf8')).cases as Array<{
  value: string;
  w3c_datetime_note: boolean;
  sitemap_xsd: boolean;
}>;

describe('lastmod verdicts match the recorded W3C and xmllint verdicts', () => {
  it.each(cases)('$value: W3C $w3c_datetime_note, XSD $sitemap_xsd', (c) => {
    expect(isW3cDatetime(c.value)).toBe(c.w3c_datetime_note);
    expect(isXsdLastmod(c.value)).toBe(c.sitemap_xsd);
  });
});

describe('normalizeLastmod', () => {
  it('emits only values both W3C and the XSD accept', () => {
    for (const c of cases) {
      const r = normalizeLastmod(c.value);
      if (r.ok) {
        expect(isW3cDatetime(r.value), c.value).toBe(true);
        expect(isXsdLastmod(r.value), c.value).toBe(true);
      }
    }
  });

  it('keeps valid values as written and completes minute-only times', () => {
    expect(normalizeLastmod('2024-08-15')).toEqual({ ok: true, value: '2024-08-15' });
    expect(normalizeLastmod('1997-07-16T19:20:30.45+01:00')).toEqual({
      ok: true,
      value: '1997-07-16T19:20:30.45+01:00',
    });
    expect(normalizeLastmod('2024-08-15T09:12Z')).toEqual({ ok: true, value: '2024-08-15T09:12:00Z' });
  });

  it('writes a zero offset as Z, so a set never mixes two spellings of UTC', () => {
    expect(normalizeLastmod('2024-08-15T09:12:00+00:00')).toEqual({
      ok: true,
      value: '2024-08-15T09:12:00Z',
    });
    expect(normalizeLastmod('2024-08-15T09:12:00.5-00:00')).toEqual({
      ok: true,
      value: '2024-08-15T09:12:00.5Z',
    });
    expect(normalizeLastmod(' 2024-08-15T09:12+00:00 ')).toEqual({ ok: true, value: '2024-08-15T09:12:00Z' });
    expect(normalizeLastmod('2024-08-15T09:12:00+02:00')).toEqual({
      ok: true,
      value: '2024-08-15T09:12:00+02:00',
    });
    expect(normalizeLastmod('2024-08-15T09:12:00+10:00')).toEqual({
      ok: true,
      value: '2024-08-15T09:12:00+10:00',
    });
    expect(isFinalLastmod('2024-08-15T09:12:00+00:00')).toBe(false);
    expect(isFinalLastmod('2024-08-15T09:12:00Z')).toBe(true);
  });

  it('converts Dates, epoch seconds, epoch milliseconds and HTTP dates to UTC', () => {
    expect(normalizeLastmod(new Date(Date.UTC(2024, 7, 15, 9, 12, 0)))).toEqual({
      ok: true,
      value: '2024-08-15T09:12:00Z',
    });
    expect(normalizeLastmod(1723713120)).toEqual({ ok: true, value: '2024-08-15T09:12:00Z' });
    expect(normalizeLastmod(1723713120500)).toEqual({ ok: true, value: '2024-08-15T09:12:00.500Z' });
    expect(normalizeLastmod('Thu, 15 Aug 2024 09:12:00 GMT')).toEqual({
      ok: true,
      value: '2024-08-15T09:12:00Z',
    });
  });

  it('refuses what it would have to guess, saying why', () => {
    const noZone = normalizeLastmod('2024-08-15T09:12:00');
    expect(noZone.ok).toBe(false);
    expect(!noZone.ok && noZone.message).toMatch(/time zone/);
    expect(normalizeLastmod('1997-07').ok).toBe(false);
    expect(normalizeLastmod('08/15/2024').ok).toBe(false);
    expect(normalizeLastmod('2024-02-30').ok).toBe(false);
    expect(normalizeLastmod(Number.NaN).ok).toBe(false);
    expect(normalizeLastmod(new Date('nope')).ok).toBe(false);
  });
});
