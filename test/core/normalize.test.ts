import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../../src/core/normalize.js';

const BASE = 'https://example.com/';
const video = { thumbnail_loc: `${BASE}t.jpg`, title: 'T', description: 'D', content_loc: `${BASE}v.mp4` };

describe('normalizeEntry never throws', () => {
  it('on an object-valued video field that is null, a number or a list: it names the field', () => {
    for (const bad of [null, 3, 'IE', []]) {
      for (const field of ['restriction', 'platform', 'gallery_loc']) {
        const r = normalizeEntry({ loc: `${BASE}a`, videos: [{ ...video, [field]: bad }] }, { legacy: true });
        expect(r.ok, `${field}: ${JSON.stringify(bad)}`).toBe(false);
        expect(!r.ok && r.errors.map((e) => e.field)).toEqual([`videos[0].${field}`]);
      }
    }
  });
});

describe('normalizeEntry with dropFields', () => {
  it('keeps the entry without each bad optional part; a part is kept whole or not at all', () => {
    const r = normalizeEntry(
      {
        loc: `${BASE}a`,
        lastmod: '2024-02-30',
        priority: 'high',
        images: [`${BASE}i.jpg`, { loc: `${BASE}j.jpg`, caption: '\u0007' }],
        videos: [{ ...video, duration: 0 }, video],
        alternates: [
          { hreflang: 'en', href: `${BASE}a` },
          { hreflang: 'de', href: 'relative' },
        ],
      },
      { dropFields: true, legacy: true },
    );
    expect(r.ok).toBe(true);
    expect(r.ok && r.entry).toEqual({
      loc: `${BASE}a`,
      images: [{ loc: `${BASE}i.jpg` }],
      videos: [video],
    });
    expect(r.warnings.map((w) => w.field)).toEqual([
      'lastmod',
      'priority',
      'images[1].caption',
      'videos[0].duration',
      'alternates[1].href',
    ]);
  });

  it('still refuses a record whose loc, section or mobile is bad', () => {
    for (const bad of [
      { loc: 'relative' },
      { loc: `${BASE}a`, section: 'a b' },
      { loc: `${BASE}a`, mobile: 'y' },
    ]) {
      expect(normalizeEntry({ ...bad, lastmod: 'never' }, { dropFields: true }).ok).toBe(false);
    }
  });
});

describe('free text XML cannot carry', () => {
  // A control character in a field written into XML as it is: an error naming the field, never a
  // file xmllint refuses (a fast-check property of test/writer/on-invalid.test.ts found the tag).
  const BEL = '\u0007';
  it.each([
    ['videos[0].tag', { videos: [{ ...video, tag: ['ok', `bell${BEL}`] }] }],
    [
      'videos[0].gallery_loc.title',
      { videos: [{ ...video, gallery_loc: { loc: `${BASE}g`, title: `G${BEL}` } }] },
    ],
    ['videos[0].price', { videos: [{ ...video, price: [{ value: `1${BEL}`, currency: 'EUR' }] }] }],
    ['videos[0].id', { videos: [{ ...video, id: [{ type: 'url', value: `x${BEL}` }] }] }],
    ['title', { title: `Page${BEL}` }],
  ])('%s', (field, extra) => {
    const r = normalizeEntry({ loc: `${BASE}a`, ...extra }, { legacy: true });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.errors).toContainEqual(
        expect.objectContaining({
          field,
          message: `${field} holds a control character that XML cannot carry; remove it`,
        }),
      );
  });
});
