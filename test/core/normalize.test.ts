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
