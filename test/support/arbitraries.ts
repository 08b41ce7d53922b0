import fc from 'fast-check';
import type { EntryInput } from '../../src/core/entry.js';

/** Writer inputs over the whole entry model, for property tests (schema, round trip). */
const BASE = 'https://example.com/';

const pathChar = fc.constantFrom(..."abcxyz019-._~!$&'()*+,;=:@%/ éü中?".split(''));
export const pathArb: fc.Arbitrary<string> = fc
  .array(pathChar, { minLength: 0, maxLength: 24 })
  .map((a) => a.join(''));
export const locArb: fc.Arbitrary<string> = pathArb.map((p) => `${BASE}${p.replace(/%/g, '%25')}`);
const urlArb = fc.oneof(
  locArb,
  pathArb.map((p) => `https://cdn.example.net/${encodeURIComponent(p)}`),
);
const textArb = fc
  .string({ minLength: 1, maxLength: 40 })
  .filter(
    (s) => s.trim() !== '' && !/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/.test(s),
  );
const dateArb = fc.oneof(
  fc.date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2030-12-31T00:00:00Z'),
    noInvalidDate: true,
  }),
  fc
    .date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2030-12-31T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2024-08-15T09:12:00+02:00', '1997-07-16T19:20:30.45+01:00', '2024-08-15T09:12Z'),
);

const videoArb = fc.record(
  {
    thumbnail_loc: urlArb,
    title: textArb.map((s) => s.slice(0, 100)),
    description: textArb,
    content_loc: urlArb.map((u) => `${u}#v`),
    duration: fc.integer({ min: 1, max: 28_800 }),
    rating: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
    view_count: fc.nat(),
    publication_date: dateArb,
    family_friendly: fc.constantFrom('yes', 'no', 'YES'),
    restriction: fc.record({
      relationship: fc.constantFrom('allow', 'deny'),
      countries: fc.constantFrom('IE GB', 'us', ''),
    }),
    uploader: fc.oneof(textArb, fc.record({ name: textArb, info: urlArb })),
    live: fc.constantFrom('yes', 'no'),
    tag: fc.array(textArb, { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['thumbnail_loc', 'title', 'description', 'content_loc'] },
);

export const entryInputArb: fc.Arbitrary<EntryInput> = fc.record(
  {
    loc: locArb,
    lastmod: dateArb,
    changefreq: fc.constantFrom('always', 'hourly', 'Daily', 'weekly', 'monthly', 'yearly', 'never'),
    priority: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
    images: fc.array(
      fc.oneof(
        urlArb,
        urlArb.map((loc) => ({ loc })),
      ),
      { minLength: 1, maxLength: 3 },
    ),
    videos: fc.array(videoArb, { minLength: 1, maxLength: 2 }),
    news: fc.record({
      publication: fc.record({ name: textArb, language: fc.constantFrom('en', 'de', 'zh-cn', 'fra') }),
      publication_date: dateArb,
      title: textArb,
    }),
    mobile: fc.boolean(),
    title: textArb,
  },
  { requiredKeys: ['loc'] },
) as fc.Arbitrary<EntryInput>;

/** A list of inputs with distinct locs (the writer refuses duplicates). */
export const entryListArb: fc.Arbitrary<EntryInput[]> = fc.uniqueArray(entryInputArb, {
  minLength: 1,
  maxLength: 25,
  selector: (e) => new URL(e.loc).href,
});
