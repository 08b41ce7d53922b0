// The sitemaps live in one route handler (app/sitemaps/[file]/route.js), but the protocol wants
// them at the site root: a sitemap lists only URLs under its own folder. The rewrite serves
// /sitemap.xml, /sitemap-00001.xml, … (and their .txt, .html views) from that handler.
export default {
  async rewrites() {
    return [{ source: '/:file(sitemap[^/]*)', destination: '/sitemaps/:file' }];
  },
};
