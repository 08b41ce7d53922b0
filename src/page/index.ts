/** Reading an HTML page as a crawler does: title, base, canonical, robots directives, links, images, dates. */
export type { ImageFilterOptions } from './image-filter.js';
export {
  absoluteHttpUrl,
  isNoindex,
  type PageLink,
  type PageMeta,
  PageMetaReader,
  type PageMetaReaderOptions,
  readPageMeta,
  resolvePageBase,
} from './page-meta.js';
export {
  canonicalFromLinkHeader,
  pageLastmod,
  parseXRobotsTag,
  robotsDirectives,
} from './verdict.js';
