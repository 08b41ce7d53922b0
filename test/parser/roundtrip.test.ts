import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import type { EntryInput, SitemapEntry } from '../../src/core/entry.js';
import { CHANGEFREQS } from '../../src/core/limits.js';
import { normalizeEntry } from '../../src/core/normalize.js';
import { type Extension, URLSET_CLOSE, urlsetOpen, urlXml } from '../../src/writer/serialize.js';
import { parseCore } from './helpers.js';

// Text that XML must escape or carry intact: markup characters, CDATA's end, non-ASCII, astral.
// Not CR, tab or newline inside attribute values: the writer writes them raw, and XML turns a raw
// CR into LF (and attribute whitespace into spaces), so they cannot survive any XML round trip.
const textUnit = fc.oneof(
  fc.constantFrom('&', '<', '>', '"', "'", ']]>', '&amp;', 'é', '中', '😀', ' '),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
);
const text = (max: number): fc.Arbitrary<string> =>
  fc
    .string({ unit: textUnit, minLength: 1, maxLength: max })
    .filter((s) => s.trim() !== '' && !/[\r\t\n]/.test(s));
// The writer keeps attribute text as given while the parser trims attribute values (`hreflang=" de "`).
const attrText = text(20)
  .map((s) => s.trim())
  .filter((s) => s !== '');
const url = fc.webUrl({ withQueryParameters: true, withFragments: false, size: 'small' });
const date = fc.oneof(
  fc.date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  }),
  fc.constantFrom(
    '2024-08-15',
    '2024-08-15T09:12:00Z',
    '2024-08-15T09:12:00.123+02:00',
    '2024-08-15T09:12+01:00',
    ' 2005-01-01 ',
  ),
);
const yesNo = fc.constantFrom('yes', 'no', 'Yes', 'NO');

const video = fc.record(
  {
    thumbnail_loc: url,
    title: text(100),
    description: text(300),
    content_loc: url,
    player_loc: fc.record(
      { loc: url, allow_embed: fc.constantFrom('yes', 'no'), autoplay: fc.constantFrom('ap=1', 'on') },
      { requiredKeys: ['loc'] },
    ),
    duration: fc.integer({ min: 1, max: 28_800 }),
    expiration_date: date,
    rating: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
    view_count: fc.nat(),
    publication_date: date,
    family_friendly: yesNo,
    restriction: fc.record({
      relationship: fc.constantFrom('allow', 'deny') as fc.Arbitrary<'allow' | 'deny'>,
      countries: fc.constantFrom('IE GB', 'US', ''),
    }),
    platform: fc.record({
      relationship: fc.constantFrom('allow', 'deny') as fc.Arbitrary<'allow' | 'deny'>,
      platforms: fc.constantFrom('web', 'web tv', 'mobile'),
    }),
    requires_subscription: yesNo,
    uploader: fc.oneof(text(50), fc.record({ name: text(50), info: url })),
    live: yesNo,
    tag: fc.array(text(20), { minLength: 1, maxLength: 3 }),
    category: text(40),
    gallery_loc: fc.record({ loc: url, title: attrText }, { requiredKeys: ['loc'] }),
    price: fc.array(
      fc.record(
        {
          value: fc.constantFrom('1.99', '0', '10'),
          currency: fc.constantFrom('EUR', 'USD'),
          type: fc.constantFrom('rent', 'purchase') as fc.Arbitrary<'rent' | 'purchase'>,
          resolution: fc.constantFrom('hd', 'sd') as fc.Arbitrary<'hd' | 'sd'>,
        },
        { requiredKeys: ['value', 'currency'] },
      ),
      { minLength: 1, maxLength: 2 },
    ),
    // The writer passes these legacy fields through as given, so they are generated clean.
    tvshow: fc.record(
      {
        show_title: fc.constantFrom('Show', 'A & B'),
        video_type: fc.constantFrom('full', 'clip'),
        season_number: fc.integer({ min: 1, max: 9 }),
      },
      { requiredKeys: ['show_title'] },
    ),
    content_segment_loc: fc.array(
      fc.constantFrom('https://cdn.example.com/s1.mp4', 'https://cdn.example.com/s?a=1&b=2'),
      { minLength: 1, maxLength: 2 },
    ),
    id: fc.array(
      fc.record({ value: fc.constantFrom('tt01', 'x&y'), type: fc.constantFrom('url', 'tms:series') }),
      { minLength: 1, maxLength: 2 },
    ),
  },
  { requiredKeys: ['thumbnail_loc', 'title', 'description', 'content_loc'] },
);

const news = fc.record(
  {
    publication: fc.record({ name: text(40), language: fc.constantFrom('en', 'fr', 'zh-cn') }),
    publication_date: date,
    title: text(80),
    access: fc.constantFrom('Subscription', 'Registration') as fc.Arbitrary<'Subscription' | 'Registration'>,
    genres: fc.constantFrom('Blog', 'PressRelease, Blog'),
    keywords: text(40),
    stock_tickers: fc.constantFrom('NASDAQ:A', 'NYSE:B, NASDAQ:C'),
  },
  { requiredKeys: ['publication', 'publication_date', 'title'] },
);

const entry: fc.Arbitrary<EntryInput> = fc
  .record(
    {
      loc: url,
      lastmod: date,
      changefreq: fc.constantFrom(...CHANGEFREQS, 'Weekly'),
      priority: fc.double({ min: 0, max: 1, noNaN: true }),
      images: fc.array(
        fc.oneof(
          url,
          fc.record(
            { loc: url, caption: text(40), geo_location: text(20), title: text(20), license: url },
            { requiredKeys: ['loc'] },
          ),
        ),
        { maxLength: 3 },
      ),
      videos: fc.array(video, { maxLength: 2 }),
      news,
      alternates: fc.uniqueArray(
        fc.record({ hreflang: fc.constantFrom('de', 'fr-CA', 'x-default', 'zh-Hant-TW'), href: url }),
        {
          selector: (a) => a.hreflang,
          maxLength: 3,
        },
      ),
      mobile: fc.boolean(),
    },
    { requiredKeys: ['loc'] },
  )
  .map((e) => {
    // Google wants the page among its own alternates; normalizeEntry enforces it.
    if (e.alternates === undefined || e.alternates.length === 0) return e as EntryInput;
    return { ...e, alternates: [{ hreflang: 'en', href: e.loc }, ...e.alternates] } as EntryInput;
  });

function write(entries: readonly SitemapEntry[], declared: ReadonlySet<Extension>): string {
  return urlsetOpen(declared) + entries.map((e) => urlXml(e, declared)).join('') + URLSET_CLOSE;
}

const ALL: ReadonlySet<Extension> = new Set(['image', 'video', 'news', 'xhtml', 'mobile']);

describe('round trip: parse(write(entries)) equals the normalised entries', () => {
  it.each([
    ['namespaces declared on <urlset>', ALL],
    ['namespaces declared on each element', new Set<Extension>()],
  ])('%s', (_label, declared) => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 5 }),
        (inputs, sizes) => {
          const normalized = inputs.flatMap((i) => {
            const r = normalizeEntry(i, { legacy: true });
            return r.ok ? [r.entry] : [];
          });
          fc.pre(normalized.length > 0);
          const xml = write(normalized, declared);
          const whole = parseCore(xml);
          const unexpected = whole.diagnostics.filter(
            (d: Diagnostic) => d.code !== 'video-invalid' || !d.message.includes('neither'),
          );
          expect(unexpected).toEqual([]);
          expect(whole.items).toEqual(normalized);
          expect(parseCore(xml, {}, sizes)).toEqual(whole);
        },
      ),
      { numRuns: 150 },
    );
  });
});
