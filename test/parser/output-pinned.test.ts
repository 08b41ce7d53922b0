import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { CORPUS } from './corpus.js';
import { SAMPLES, sampleFiles, urlset } from './helpers.js';

/**
 * `sitemapkit parse` output pinned byte for byte (issue 16: the parser's fast paths must not change
 * a byte of it). `pinned-output.json` holds, for every sample file, every tokenizer corpus
 * document and two documents that use every field of the entry model, the exit code, a hash of
 * stdout and stderr as they were before the per-entry work was made faster. Rewrite it only for a
 * change of output that is meant, with PIN_OUTPUT=write.
 */
const PINNED = new URL('./fixtures/pinned-output.json', import.meta.url);

/** Every field of the entry model, with values that JSON has to escape. */
const EVERY_FIELD = urlset(
  `<url><loc>https://example.com/a?q=%22x%22&amp;b=1</loc><lastmod>2024-08-15T09:12:00.5+02:00</lastmod><changefreq>daily</changefreq><priority>0.25</priority>
<image:image><image:loc>https://example.com/i.png</image:loc><image:caption>tab&#9;nl&#10;"q" \\ &#x1F600; \u00e9 &#x7f; &#x2028; \u2029 end</image:caption><image:geo_location>Paris</image:geo_location><image:title>T</image:title><image:license>https://example.com/l</image:license></image:image>
<image:image><image:loc>https://example.com/%C3%A9.png</image:loc></image:image>
<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>V "1"</video:title><video:description>D &lt;b&gt;</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc><video:player_loc allow_embed="yes" autoplay="ap=1">https://example.com/p</video:player_loc><video:duration>600</video:duration><video:expiration_date>2030-01-01</video:expiration_date><video:rating>4.2</video:rating><video:view_count>12345</video:view_count><video:publication_date>2024-01-01T00:00:00Z</video:publication_date><video:family_friendly>no</video:family_friendly><video:restriction relationship="allow">FR DE</video:restriction><video:platform relationship="deny">tv</video:platform><video:requires_subscription>yes</video:requires_subscription><video:uploader info="https://example.com/u">Ü</video:uploader><video:live>no</video:live><video:tag>a</video:tag><video:tag>b</video:tag><video:category>C</video:category><video:gallery_loc title="G">https://example.com/g</video:gallery_loc><video:price currency="EUR" type="rent" resolution="hd">1.99</video:price><video:tvshow><video:show_title>S</video:show_title><video:video_type>full</video:video_type><video:episode_title>E</video:episode_title><video:season_number>2</video:season_number><video:episode_number>3</video:episode_number><video:premier_date>2024-01-01</video:premier_date></video:tvshow><video:id type="url">https://example.com/id</video:id></video:video>
<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-08-15</news:publication_date><news:title>Title "t"</news:title><news:access>Subscription</news:access><news:genres>Blog</news:genres><news:keywords>k, l</news:keywords><news:stock_tickers>NASDAQ:A</news:stock_tickers></news:news>
<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/><xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/"/><mobile:mobile/></url>
<url><loc>HTTPS://Example.COM/b/../c/%7e?x#f</loc><priority>1.0</priority></url>
<url><loc>https://bücher.example/straße</loc><priority>0</priority></url>
<url><loc>https://example.com/n</loc><lastmod>2024-08-15</lastmod><changefreq>never</changefreq><priority>0.5000</priority></url>`,
);

/** The bench's shape: many entries with one image each, over more than one read chunk. */
const MANY = urlset(
  Array.from(
    { length: 3000 },
    (_, i) =>
      `<url><loc>https://www.example.com/products/category-${i % 97}/item-${i}.html</loc><lastmod>2024-08-${String(1 + (i % 28)).padStart(2, '0')}T09:12:00+00:00</lastmod><changefreq>weekly</changefreq><image:image><image:loc>https://cdn.example.com/images/${i}.jpg</image:loc></image:image></url>`,
  ).join('\n'),
);

interface Pinned {
  code: number;
  stdout: string;
  stderr: string;
}

const sha = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 32);

async function run(args: string[], input?: string | Uint8Array): Promise<Pinned> {
  const r = await cli(args, input);
  return { code: r.code, stdout: sha(r.stdout), stderr: sha(r.stderr) };
}

/** Every case: a name and how to run it (files by a path relative to the repository, as a user would). */
function cases(): Array<[string, () => Promise<Pinned>]> {
  const out: Array<[string, () => Promise<Pinned>]> = [];
  const root = fileURLToPath(new URL('../../', import.meta.url));
  for (const name of sampleFiles()) {
    const path = relative(root, join(SAMPLES, name));
    out.push([`${name} jsonl`, () => run(['parse', path, '--format', 'jsonl'])]);
  }
  const docs: Record<string, string | Uint8Array> = { ...CORPUS, 'every-field': EVERY_FIELD, many: MANY };
  for (const [name, doc] of Object.entries(docs)) {
    out.push([`${name} jsonl`, () => run(['parse', '-', '--format', 'jsonl'], doc)]);
    out.push([`${name} jsonl --raw-urls`, () => run(['parse', '-', '--raw-urls'], doc)]);
    out.push([`${name} csv`, () => run(['parse', '-', '--format', 'csv'], doc)]);
  }
  return out;
}

describe('parse output is pinned byte for byte', () => {
  const all = cases();
  if (process.env['PIN_OUTPUT'] === 'write') {
    it('writes the pinned outputs', async () => {
      const got: Record<string, Pinned> = {};
      for (const [name, go] of all) got[name] = await go();
      writeFileSync(PINNED, `${JSON.stringify(got, null, 1)}\n`);
    });
    return;
  }
  const pinned = JSON.parse(readFileSync(PINNED, 'utf8')) as Record<string, Pinned>;
  it('pins every case (none added or lost)', () => {
    expect(all.map(([n]) => n).sort()).toEqual(Object.keys(pinned).sort());
  });
  for (const [name, go] of all) {
    it(name, async () => {
      expect(await go()).toEqual(pinned[name]);
    });
  }
});
