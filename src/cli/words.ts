/**
 * The CLI's words for the library's option names. The library checks every option once and names
 * it as a library user wrote it (`maxUrlsPerFile`); a CLI user wrote `--max-urls`, so messages
 * that reach the terminal are reworded here, at the edge, instead of checking twice.
 */
const FLAGS: Readonly<Record<string, string>> = {
  baseUrl: '--base-url',
  outDir: '--out',
  publicOrigin: '--public-origin',
  maxUrlsPerFile: '--max-urls',
  maxBytesPerFile: '--max-bytes',
  maxDrop: '--max-drop',
  linksPerPage: '--links-per-page',
  siteName: '--site-name',
  updateRobots: '--update-robots',
  allowHosts: '--allow-host',
  onInvalid: '--on-invalid',
  hostConcurrency: '--host-concurrency',
  maxCrawlDelayMs: '--max-crawl-delay',
  userAgent: '--user-agent',
  robotsAgent: '--robots-agent',
  metaAgents: '--meta-agent',
  timeoutMs: '--timeout',
  maxPageBytes: '--max-page-bytes',
  pathPrefix: '--path-prefix',
  maxDepth: '--max-depth',
  maxPages: '--max-pages',
  keepParams: '--keep-params',
  dropParams: '--drop-params',
  maxPerPattern: '--max-per-pattern',
  followNofollow: '--follow-nofollow',
  includePdf: '--include-pdf',
  seedSitemaps: '--seed-sitemaps',
  priorityMap: '--priority-map',
  sitemapUrl: '--sitemap-url',
  keyLocation: '--key-location',
  maxWarnings: '--max-warnings',
  'live.concurrency': '--concurrency',
  'live.perHost': '--per-host',
  'live.timeoutMs': '--live-timeout',
  'live.limit': '--live-limit',
  'live.method': '--live-method',
};

// A library option name: camelCase, optionally under `sitemaps.` (crawl's writer bag) or `live.`.
// Never inside a URL, a path or a quoted value.
const NAME =
  /(?<![\w.\-/"'=?&#@:])(sitemaps\.)?((?:live\.)?[a-z]+(?:[A-Z][a-z]*)+|live\.[a-z]+)(?![\w\-/"'=])/g;

/** `text` with every library option name that has a flag replaced by that flag. */
export function cliWords(text: string): string {
  return text.replace(NAME, (whole, _bag: string | undefined, name: string) => FLAGS[name] ?? whole);
}
