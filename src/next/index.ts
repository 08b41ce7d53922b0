/**
 * Next.js (`sitemapkit/next`): the sitemaps of a finished `next build`, with next-sitemap's options
 * and file names. No Next.js code is loaded: the build's files say everything.
 */
export { type NextBuild, type ReadNextBuildOptions, readNextBuild } from './build.js';
export { loadNextConfig, type NextConfigFile } from './config-file.js';
export { generateNextSitemaps, type NextSitemapsResult, type NextSkipped } from './generate.js';
export type {
  NextAlternateRef,
  NextRobotsPolicy,
  NextRobotsTxtOptions,
  NextSitemapField,
  NextSitemapOptions,
} from './options.js';
export { type NextPagesOptions, readNextPages } from './pages.js';
export { LEFT_OUT_REASONS, type NextLeftOut, type NextLeftOutReason } from './routes.js';
