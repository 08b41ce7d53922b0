/**
 * Compile-time checks of `writeSitemaps`' input, type-checked by test/writer/input-types.test.ts
 * (and by `tsc --noEmit`). Each `@ts-expect-error` line must fail to compile: were it accepted, the
 * directive itself would be the error. Nothing here runs.
 */
import type { SitemapEntry, SitemapEntryInput } from '../../../src/core/entry.js';
import type { EntrySource } from '../../../src/writer/write-sitemaps.js';
import { UnreadableRecord, untypedRecords, writeSitemaps } from '../../../src/writer/write-sitemaps.js';

const options = { baseUrl: 'https://example.com/', output: 'memory' } as const;

export async function documentedShorthand(): Promise<void> {
  // The README's shorthand: a Date or epoch lastmod, images as URLs, player_loc and uploader as
  // strings, numeric strings, any letter case for enumerations.
  const entries: SitemapEntryInput[] = [
    { loc: 'https://example.com/', lastmod: new Date(), changefreq: 'Daily', priority: '0.8' },
    {
      loc: 'https://example.com/a',
      lastmod: 1723713120,
      images: ['https://example.com/a.jpg', { loc: 'x' }],
    },
    {
      loc: 'https://example.com/v',
      videos: [
        {
          thumbnail_loc: 'https://example.com/t.jpg',
          title: 'T',
          description: 'D',
          player_loc: 'https://example.com/p',
          uploader: 'Grilly',
          duration: '600',
          publication_date: new Date(),
          family_friendly: 'YES',
          restriction: { relationship: 'Allow', countries: 'IE GB' },
        },
      ],
      news: { publication: { name: 'N', language: 'en' }, publication_date: new Date(), title: 'T' },
    },
  ];
  await writeSitemaps(entries, options);
  // Sync and async iterables, generators, and what the parser reports.
  async function* rows(): AsyncGenerator<SitemapEntryInput> {
    yield { loc: 'https://example.com/' };
  }
  await writeSitemaps(rows(), options);
  const parsed: SitemapEntry[] = [];
  await writeSitemaps(parsed, options);
  await writeSitemaps([{ loc: 'https://example.com/' }, new UnreadableRecord('line 3 is not JSON')], options);
}

export async function refusedAtCompileTime(): Promise<void> {
  // @ts-expect-error loc is required
  await writeSitemaps([{ lastmod: '2024-01-01' }], options);
  // @ts-expect-error loc is a string
  await writeSitemaps([{ loc: 5 }], options);
  // @ts-expect-error lastmod is text, a Date or epoch number
  await writeSitemaps([{ loc: 'https://example.com/', lastmod: true }], options);
  // @ts-expect-error images are URLs or {loc}
  await writeSitemaps([{ loc: 'https://example.com/', images: [{ url: 'x' }] }], options);
  // @ts-expect-error a video needs thumbnail_loc, title and description
  await writeSitemaps([{ loc: 'https://example.com/', videos: [{ title: 'T' }] }], options);
  // @ts-expect-error records of unknown shape go through untypedRecords()
  await writeSitemaps([] as unknown[], options);
  const json: unknown[] = JSON.parse('[{"loc": "https://example.com/"}]');
  // The explicit path: checked when read, under onInvalid.
  await writeSitemaps(untypedRecords(json), options);
  const source: EntrySource = untypedRecords((async function* () {})());
  await writeSitemaps(source, options);
}
