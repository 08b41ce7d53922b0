/** The HTML site map for people: paged link lists by section. */
export {
  DEFAULT_LINKS_PER_PAGE,
  HtmlSitemapBuilder,
  type HtmlSitemapFile,
  type HtmlSitemapOptions,
} from './html-sitemap.js';
