import fc from 'fast-check';
import { locArb } from './arbitraries.js';

/**
 * Writer records of every kind, valid or not, for the property that `onInvalid: 'skip'` and
 * `'drop-field'` write only what the validator accepts. Locs come from a small pool so that
 * duplicates and hreflang groups (whole, one-sided, inconsistent) happen often.
 */
const BASE = 'https://example.com/';
const POOL = ['', 'a', 'b', 'c', 'de/', 'en/', 'fr/', 'x?y=1'].map((p) => `${BASE}${p}`);

/** Mostly good values, now and then a bad one: a record has many fields, and under skip one bad field loses it. */
function mostly<T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>): fc.Arbitrary<T | U> {
  return fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 });
}

const poolLoc = fc.constantFrom(...POOL);
const badUrl = fc.constantFrom(
  'relative/path',
  'ftp://example.com/file',
  'https://other.example/outside',
  'https://example.com/has space',
  'http://example.com/',
  '',
  `${BASE}${'x'.repeat(2100)}`,
  'javascript:alert(1)',
  'https://',
);
const goodUrl = fc.oneof(locArb, fc.constant('https://cdn.example.net/i.jpg'));
const anyUrl = mostly(goodUrl, fc.oneof(badUrl, poolLoc));
const junk = fc.oneof(
  fc.constant(null),
  fc.constant({}),
  fc.constant([]),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
);

const lastmod = mostly(
  fc.oneof(
    fc.constantFrom(
      '2024-08-15',
      '2024-08-15T09:12:00Z',
      '2024-08-15T09:12:00+00:00',
      '2024-08-15T09:12+02:00',
      'Thu, 15 Aug 2024 09:12:00 GMT',
    ),
    fc.date({
      min: new Date('1990-01-01T00:00:00Z'),
      max: new Date('2030-01-01T00:00:00Z'),
      noInvalidDate: true,
    }),
    fc.integer({ min: 0, max: 2e9 }),
  ),
  fc.oneof(
    fc.constantFrom('1997-07', '2024-02-30', '2024-08-15T09:12:00', 'yesterday', '08/15/2024'),
    fc.date({ noInvalidDate: false }),
    fc.integer({ min: -1e13, max: 1e13 }),
    junk,
  ),
);
const changefreq = mostly(fc.constantFrom('daily', 'WEEKLY', ''), fc.oneof(fc.constant('sometimes'), junk));
const priority = mostly(
  fc.constantFrom(0, 0.5, 1, '0.3'),
  fc.oneof(fc.constantFrom(1.5, -0.1, 'high', Number.NaN), junk),
);
const text = mostly(
  fc.oneof(
    fc.constantFrom('A title', 'Grüße & <tags>', '"quoted" \'text\''),
    fc.string({ minLength: 1, maxLength: 12 }).filter((t) => /^[a-z]+$/i.test(t)),
  ),
  fc.oneof(fc.constantFrom('  ', 'x'.repeat(120), 'bell\u0007'), fc.string({ maxLength: 12 })),
);
const image = mostly(
  fc.oneof(anyUrl, fc.record({ loc: anyUrl, caption: text }, { requiredKeys: ['loc'] })),
  fc.oneof(fc.record({ caption: text }), junk),
);
const video = fc
  .record(
    {
      thumbnail_loc: anyUrl,
      title: text,
      description: text,
      content_loc: anyUrl,
      player_loc: fc.oneof(anyUrl, fc.record({ loc: anyUrl, allow_embed: fc.constantFrom('yes', 'maybe') })),
      duration: mostly(fc.constantFrom(1, 600, '60'), fc.oneof(fc.constantFrom(0, 28_801, 1.5), junk)),
      rating: mostly(fc.constantFrom(0, 4.2, '3'), fc.oneof(fc.constant(5.5), junk)),
      view_count: mostly(fc.constantFrom(0, 10, '7'), fc.oneof(fc.constant(-1), junk)),
      publication_date: lastmod,
      expiration_date: lastmod,
      family_friendly: mostly(fc.constantFrom('yes', 'No', true), fc.oneof(fc.constant('maybe'), junk)),
      restriction: mostly(
        fc.record({
          relationship: fc.constantFrom('allow', 'deny'),
          countries: fc.constantFrom('IE GB', 'us', ''),
        }),
        fc.oneof(
          fc.record({ relationship: fc.constant('both'), countries: fc.constantFrom('XX1', 'IE') }),
          junk,
        ),
      ),
      platform: fc.record({
        relationship: fc.constantFrom('allow', 'deny'),
        platforms: fc.constantFrom('web', 'web tv', 'desktop', ''),
      }),
      uploader: fc.oneof(text, fc.record({ name: text, info: anyUrl })),
      live: mostly(fc.constantFrom('yes', 'no'), fc.constant('sometimes')),
      tag: mostly(
        fc.oneof(text, fc.array(text, { maxLength: 4 })),
        fc.array(text, { minLength: 33, maxLength: 40 }),
      ),
      requires_subscription: mostly(fc.constantFrom('yes', 'no'), fc.constant(2)),
    },
    { requiredKeys: [] },
  )
  .chain((v) =>
    // Usually the three required fields and one of content_loc and player_loc.
    fc.boolean().map((keep) =>
      keep
        ? v
        : {
            thumbnail_loc: 'https://cdn.example.net/t.jpg',
            title: 'T',
            description: 'D',
            content_loc: 'https://cdn.example.net/v.mp4',
            ...v,
          },
    ),
  );
const news = mostly(
  fc.record(
    {
      publication: mostly(
        fc.record(
          {
            name: text,
            language: mostly(fc.constantFrom('en', 'de', 'zh-cn', 'EN'), fc.constantFrom('english', '')),
          },
          { requiredKeys: ['name'] },
        ),
        junk,
      ),
      publication_date: lastmod,
      title: text,
      access: fc.constantFrom('Subscription', 'Free'),
      stock_tickers: text,
    },
    { requiredKeys: ['publication', 'publication_date', 'title'] },
  ),
  junk,
);
const hreflang = mostly(
  fc.constantFrom('en', 'de', 'fr', 'x-default', 'en-GB', 'EN', 'zh-Hant-TW'),
  fc.constantFrom('english', ''),
);
// Alternates on another host (example.de) are the other site's business: neither the writer nor
// the validator can see that host's sitemap, and both leave its side of the group alone.
const otherHost = fc.constantFrom('https://example.de/', 'https://example.de/seite');
const alternate = mostly(
  fc.record({ hreflang, href: mostly(fc.oneof(poolLoc, poolLoc, poolLoc, otherHost), badUrl) }),
  fc.oneof(fc.record({ hreflang }, { requiredKeys: [] }), junk),
);
const alternates = mostly(fc.array(alternate, { maxLength: 4 }), junk);

const record = fc.record(
  {
    loc: mostly(fc.oneof(poolLoc, locArb), fc.oneof(badUrl, junk)),
    lastmod,
    changefreq,
    priority,
    images: mostly(fc.array(image, { maxLength: 3 }), junk),
    videos: mostly(fc.array(video, { maxLength: 2 }), junk),
    news,
    alternates,
    mobile: mostly(fc.boolean(), junk),
    section: mostly(fc.constantFrom('blog', 'Pages', ''), fc.oneof(fc.constant('bad name'), junk)),
    title: text,
    price: fc.constant('9.99'),
  },
  { requiredKeys: ['loc'] },
);

/**
 * A group's pages, each listing the same set: mostly whole, sometimes with a member changed
 * afterwards by the record arbitrary's own alternates.
 */
const wholeGroup = fc
  .uniqueArray(fc.constantFrom('de/', 'en/', 'fr/', 'a'), { minLength: 1, maxLength: 3 })
  .map((paths) => {
    const langs = ['de', 'en', 'fr', 'it'];
    const alts = paths.map((p, i) => ({ hreflang: langs[i]!, href: `${BASE}${p}` }));
    return paths.map((p) => ({ loc: `${BASE}${p}`, alternates: alts }));
  });

export const badRecordsArb: fc.Arbitrary<unknown[]> = fc
  .tuple(fc.array(mostly(record, junk), { maxLength: 12 }), fc.array(wholeGroup, { maxLength: 2 }))
  .chain(([records, groups]) =>
    fc.shuffledSubarray([...records, ...groups.flat()], {
      minLength: Math.min(1, records.length + groups.length),
    }),
  );
