import { createSitemapHandler } from 'sitemapkit/handler';
import { pagesDb } from '../../../lib/pages-db.js';

const SITE = process.env.SITE_URL ?? 'https://example.com/';

const sitemaps = createSitemapHandler({
  baseUrl: SITE,
  // Child N is page N of the table: serving a child reads only its own rows.
  source: {
    count: () => pagesDb().prepare('SELECT count(*) AS n FROM pages').get().n,
    page: (index, size) =>
      pagesDb()
        .prepare('SELECT path, updated FROM pages ORDER BY id LIMIT ? OFFSET ?')
        .all(size, index * size)
        .map((row) => ({ loc: new URL(row.path, SITE).href, lastmod: row.updated })),
  },
  // Files are generated again (and get a new ETag) only when this changes.
  version: () => pagesDb().prepare('SELECT max(updated) AS v FROM pages').get().v ?? '',
  maxUrlsPerFile: Number(process.env.SITEMAP_URLS_PER_FILE ?? 50000),
});

// Read at request time, from the database: never prerendered at build time.
export const dynamic = 'force-dynamic';

async function serve(request, { params }) {
  const { file } = await params;
  // Next.js compresses responses itself and drops a route handler's Content-Encoding, so the
  // handler must answer uncompressed.
  const headers = new Headers(request.headers);
  headers.delete('accept-encoding');
  // The handler answers by the public path (/sitemap.xml), which the rewrite hides from this route.
  return sitemaps(new Request(new URL(`/${file}`, request.url), { method: request.method, headers }));
}

export { serve as GET, serve as HEAD };
