/**
 * The one table of every diagnostic code sitemapkit reports (parser, validator, live checks,
 * robots.txt lint, writer), with the severity the validator gives it, what it means and the fix.
 * docs/rules.md is generated from it (`node scripts/gen-rules-doc.mjs`); a test fails when the two
 * drift. Codes are public API: never renamed or reused.
 */
import type { RuleInfo, Severity } from '../core/diagnostics.js';
import { PARSER_RULES, type ParserRuleCode } from '../parser/rules.js';
import { ROBOTS_RULES } from '../robots/rules.js';

/** The part of sitemapkit that reports a code. */
export type RuleSource = 'parser' | 'validator' | 'live' | 'robots' | 'writer' | 'crawler';

/** Sections of the rule table. */
export type RuleGroup =
  | 'document'
  | 'protocol'
  | 'extensions'
  | 'index'
  | 'quality'
  | 'robots'
  | 'live'
  | 'writer'
  | 'crawler'
  | 'robots-lint';

/** One rule: its validator severity, meaning and fix, and where it comes from. */
export interface Rule extends RuleInfo {
  /** Which module reports it. */
  source: RuleSource;
  /** Its section in docs/rules.md. */
  group: RuleGroup;
  /**
   * The severity the reporting module gives it on its own (`sitemapkit parse`, `robots lint`,
   * `generate`), when the validator's differs: the parser keeps reading what the validator fails.
   */
  reportedAs?: Severity;
}

/** Section titles, in the order docs/rules.md lists them. */
export const RULE_GROUPS: Readonly<Record<RuleGroup, string>> = {
  document: 'Reading the document: bytes, encoding, XML, format, fetching',
  protocol: 'The sitemap protocol: structure, values, limits, the location rule',
  extensions: 'Extensions: image, video, news, hreflang',
  index: 'Sitemap indexes and trees',
  quality: 'Quality: what search engines distrust or ignore',
  robots: 'robots.txt and the sitemap',
  live: 'Live checks (`--live`): each listed page as a crawler sees it',
  writer: 'Writer input (`generate`, `writeSitemaps`)',
  crawler: 'Crawler (`crawl`)',
  'robots-lint': 'robots.txt lint (`robots lint`)',
};

function parser(code: ParserRuleCode, severity: Severity, group: RuleGroup): [string, Rule] {
  const info = PARSER_RULES[code];
  const rule: Rule = { severity, summary: info.summary, fix: info.fix, source: 'parser', group };
  if (info.severity !== severity) rule.reportedAs = info.severity;
  return [code, rule];
}

function own(
  code: string,
  severity: Severity,
  group: RuleGroup,
  source: RuleSource,
  summary: string,
  fix: string,
  reportedAs?: Severity,
): [string, Rule] {
  const rule: Rule = { severity, summary, fix, source, group };
  if (reportedAs !== undefined && reportedAs !== severity) rule.reportedAs = reportedAs;
  return [code, rule];
}

function robots(code: string, severity: Severity, group: RuleGroup): [string, Rule] {
  const info = ROBOTS_RULES[code];
  if (info === undefined) throw new Error(`no robots rule ${code}`);
  const rule: Rule = { severity, summary: info.summary, fix: info.fix, source: 'robots', group };
  if (info.severity !== severity) rule.reportedAs = info.severity;
  return [code, rule];
}

const ENTRIES: Array<[string, Rule]> = [
  // ---- document -------------------------------------------------------------------------------
  parser('document-empty', 'error', 'document'),
  parser('format-unknown', 'error', 'document'),
  parser('html-not-sitemap', 'error', 'document'),
  parser('bom', 'info', 'document'),
  parser('encoding-not-utf8', 'error', 'document'),
  parser('encoding-invalid', 'error', 'document'),
  parser('gzip-invalid', 'error', 'document'),
  parser('gzip-nested', 'error', 'document'),
  parser('sitemap-too-large', 'error', 'document'),
  parser('download-too-large', 'error', 'document'),
  parser('fetch-failed', 'error', 'document'),
  parser('fetch-status', 'error', 'document'),
  parser('fetch-redirect', 'error', 'document'),
  parser('xml-doctype', 'error', 'document'),
  parser('xml-not-well-formed', 'error', 'document'),
  parser('xml-bare-ampersand', 'error', 'document'),
  parser('xml-entity', 'error', 'document'),
  parser('xml-truncated', 'error', 'document'),
  parser('xml-too-deep', 'error', 'document'),
  parser('xml-leading-junk', 'error', 'document'),
  parser('xml-declaration-misplaced', 'error', 'document'),
  parser('xml-cdata', 'info', 'document'),
  parser('xml-comment', 'info', 'document'),
  parser('text-blank-line', 'info', 'document'),
  parser('text-comment', 'warning', 'document'),
  parser('text-crlf', 'info', 'document'),
  parser('text-junk-line', 'error', 'document'),
  parser('feed-item-no-link', 'warning', 'document'),
  parser('diagnostics-suppressed', 'info', 'document'),

  // ---- protocol -------------------------------------------------------------------------------
  parser('namespace-missing', 'error', 'protocol'),
  parser('namespace-wrong', 'error', 'protocol'),
  parser('namespace-prefixed', 'info', 'protocol'),
  parser('namespace-undeclared', 'error', 'protocol'),
  parser('element-unknown', 'error', 'protocol'),
  own(
    'element-extension',
    'info',
    'protocol',
    'validator',
    'An element in a namespace of its own, which sitemapkit does not read: the protocol allows such extensions after the core elements (reported once per namespace and document).',
    'Nothing needed, as long as search engines do not need it; its schema must be loaded for strict XSD validation.',
  ),
  parser('element-order', 'error', 'protocol'),
  parser('element-duplicate', 'error', 'protocol'),
  parser('value-whitespace', 'info', 'protocol'),
  parser('value-too-long', 'error', 'protocol'),
  parser('value-invalid', 'error', 'protocol'),
  parser('loc-missing', 'error', 'protocol'),
  parser('url-invalid', 'error', 'protocol'),
  parser('url-scheme', 'error', 'protocol'),
  parser('url-too-short', 'error', 'protocol'),
  parser('url-too-long', 'error', 'protocol'),
  parser('url-outside-location', 'error', 'protocol'),
  parser('lastmod-invalid', 'error', 'protocol'),
  parser('lastmod-not-w3c', 'warning', 'protocol'),
  parser('lastmod-not-xsd', 'warning', 'protocol'),
  parser('changefreq-invalid', 'error', 'protocol'),
  parser('priority-invalid', 'error', 'protocol'),
  parser('too-many-urls', 'error', 'protocol'),
  parser('sitemap-empty', 'error', 'protocol'),

  // ---- extensions -----------------------------------------------------------------------------
  parser('image-invalid', 'error', 'extensions'),
  parser('video-invalid', 'error', 'extensions'),
  parser('news-invalid', 'error', 'extensions'),
  parser('alternate-invalid', 'error', 'extensions'),
  parser('too-many-children', 'warning', 'extensions'),
  own(
    'hreflang-invalid',
    'error',
    'extensions',
    'validator',
    'An hreflang value is not a language code (en, en-GB, zh-Hant-TW) or x-default, or a language appears twice in one group.',
    'Use ISO 639-1 language codes, optionally with an ISO 15924 script and an ISO 3166-1 region, or x-default.',
  ),
  own(
    'hreflang-missing-self',
    'error',
    'extensions',
    'validator',
    'A page lists alternates but not itself: Google ignores a group without the self-reference.',
    'Add an <xhtml:link rel="alternate" hreflang="…" href="…"/> whose href is the page’s own <loc>.',
  ),
  own(
    'hreflang-not-reciprocal',
    'error',
    'extensions',
    'validator',
    'Page A lists B as an alternate, but B is not listed with A among its own alternates: Google ignores links that are not confirmed both ways.',
    'Give every language version its own <url> repeating the whole group; validate the whole tree with --recursive.',
  ),
  own(
    'hreflang-unchecked',
    'info',
    'extensions',
    'validator',
    'The tree has more than 200,000 hreflang links; the reciprocity check was skipped to keep memory bounded.',
    'Validate the language sitemaps in smaller groups to check reciprocity.',
  ),
  own(
    'news-too-old',
    'warning',
    'extensions',
    'validator',
    'A news entry was published more than two days ago; Google News only reads recent articles.',
    'Remove articles older than two days from the news sitemap, or drop their <news:news> block.',
  ),
  own(
    'news-too-many',
    'warning',
    'extensions',
    'validator',
    'A sitemap has more than 1,000 <news:news> entries.',
    'Split the news sitemap into files of at most 1,000 news entries.',
  ),
  own(
    'legacy-tag',
    'warning',
    'extensions',
    'validator',
    'A tag Google dropped in 2022 (image caption/geo_location/title/license; video category, gallery_loc, price, tvshow, player_loc attributes…): it has no effect.',
    'Remove it; it is ignored since August 2022 (the writer drops it unless asked for legacy tags).',
  ),

  // ---- index ----------------------------------------------------------------------------------
  parser('too-many-sitemaps', 'error', 'index'),
  parser('index-nested', 'error', 'index'),
  parser('index-cycle', 'error', 'index'),
  parser('index-duplicate', 'warning', 'index'),
  parser('index-depth', 'error', 'index'),
  parser('tree-limit', 'error', 'index'),
  parser('discover-none', 'error', 'index'),
  own(
    'index-not-followed',
    'info',
    'index',
    'validator',
    'The source is a sitemap index; without --recursive only the index itself was validated, not the sitemaps it lists.',
    'Run with --recursive (library: recursive: true) to validate the whole tree.',
  ),

  // ---- quality --------------------------------------------------------------------------------
  own(
    'url-duplicate',
    'warning',
    'quality',
    'validator',
    'A URL is listed more than once in one sitemap or across the files of one tree.',
    'List each URL once; drop the copies.',
    'error',
  ),
  own(
    'url-mixed-host',
    'warning',
    'quality',
    'validator',
    'URLs use both the www and the bare host (www.example.com and example.com); one of them redirects, or both are indexed as duplicates.',
    'Pick one host, redirect the other to it, and list only the chosen one.',
  ),
  own(
    'url-mixed-scheme',
    'warning',
    'quality',
    'validator',
    'URLs of one host use both http and https.',
    'List only the https URLs (and redirect http to https).',
  ),
  own(
    'url-session-id',
    'warning',
    'quality',
    'validator',
    'A URL carries a session ID (PHPSESSID, jsessionid, sid, …): a per-visitor copy of a page.',
    'List the URL without the session parameter (the list is shared with the crawler, which strips them).',
  ),
  own(
    'url-tracking-param',
    'warning',
    'quality',
    'validator',
    'A URL carries a tracking parameter (utm_*, gclid, fbclid, …): a duplicate of the page without it.',
    'List the clean URL; tracking parameters belong in links, not in sitemaps.',
  ),
  own(
    'url-asset',
    'warning',
    'quality',
    'validator',
    'A URL is an image, script, style sheet, font, media file, archive or sitemap, listed as a page.',
    'List pages only; put images in <image:image> and videos in <video:video>, or leave assets out.',
  ),
  own(
    'lastmod-future',
    'warning',
    'quality',
    'validator',
    'A lastmod lies in the future.',
    'Write the time the page last changed, in UTC or with its offset.',
  ),
  own(
    'lastmod-identical',
    'warning',
    'quality',
    'validator',
    'Every lastmod of a sitemap (10 or more) is the same value: search engines stop trusting lastmods that do not follow real changes.',
    'Write each page’s own last significant change, or leave lastmod out where it is unknown.',
  ),
  own(
    'lastmod-generation-time',
    'warning',
    'quality',
    'validator',
    'Every lastmod of a sitemap (10 or more) is the time the file was generated (its modification time, Last-Modified, the index’s lastmod or the fetch time): the generator stamps "now".',
    'Take lastmod from the content (a database column, the file’s git history), not from the clock.',
  ),
  own(
    'priority-ignored',
    'info',
    'quality',
    'validator',
    'URLs carry <priority>; Google ignores it (reported once per sitemap, with a count).',
    'Nothing needed; leave priority out to make files smaller.',
  ),
  own(
    'changefreq-ignored',
    'info',
    'quality',
    'validator',
    'URLs carry <changefreq>; Google ignores it (reported once per sitemap, with a count).',
    'Nothing needed; leave changefreq out to make files smaller.',
  ),

  // ---- robots ---------------------------------------------------------------------------------
  own(
    'sitemap-not-in-robots',
    'warning',
    'robots',
    'validator',
    'robots.txt has no Sitemap: line naming this sitemap (or an index listing it): crawlers without a search console will not find it.',
    'Add `Sitemap: <the sitemap URL>` to robots.txt (anywhere in the file).',
  ),
  robots('robots-sitemap-disallowed', 'warning', 'robots'),
  own(
    'robots-unavailable',
    'info',
    'robots',
    'validator',
    'robots.txt answered 4xx (or too many redirects): crawlers treat the whole site as allowed.',
    'Publish a robots.txt with a Sitemap: line.',
  ),
  own(
    'robots-unreachable',
    'error',
    'robots',
    'validator',
    'robots.txt answered 5xx or 429, or could not be fetched: crawlers treat the whole site as disallowed (RFC 9309 §2.3.1.4).',
    'Make /robots.txt answer 200 (or 404 when there is none) quickly and reliably.',
    'warning',
  ),

  // ---- live -----------------------------------------------------------------------------------
  own(
    'live-client-error',
    'error',
    'live',
    'live',
    'A listed URL answers 4xx (not found, gone, forbidden, …).',
    'Remove the URL from the sitemap, or restore the page.',
  ),
  own(
    'live-server-error',
    'error',
    'live',
    'live',
    'A listed URL answers 5xx (after the retries Retry-After allows).',
    'Fix the server error; crawlers slow down on sites that fail.',
  ),
  own(
    'live-redirect',
    'error',
    'live',
    'live',
    'A listed URL redirects (the target is in the message): a sitemap should list final URLs.',
    'List the redirect target instead.',
  ),
  own(
    'live-fetch-failed',
    'error',
    'live',
    'live',
    'A listed URL could not be fetched (connection refused, DNS, TLS, timeout).',
    'Check that the host answers from here; raise the live timeout for slow pages.',
  ),
  own(
    'live-noindex',
    'error',
    'live',
    'live',
    'A listed page says noindex (robots meta tag, a meta tag for the chosen agent, or an X-Robots-Tag header).',
    'Remove the page from the sitemap, or remove the noindex if the page should be indexed.',
  ),
  own(
    'live-canonical-elsewhere',
    'error',
    'live',
    'live',
    'A listed page names another URL as its canonical (relative canonicals resolved against <base href> or the page URL).',
    'List the canonical URL instead, or make the page canonical to itself.',
  ),
  own(
    'canonical-ignored',
    'warning',
    'live',
    'live',
    'A page’s canonical link cannot be parsed or is not http(s); search engines ignore it (the same rule for the writer, crawler and validator).',
    'Write an absolute http(s) canonical URL, or remove the link.',
  ),
  own(
    'live-lastmod-stale',
    'error',
    'live',
    'live',
    'A listed page’s Last-Modified header is later than its lastmod: the sitemap says it changed earlier than it did.',
    'Update lastmod when the page changes (or stop sending a Last-Modified that does not track the content).',
  ),
  own(
    'live-not-html',
    'error',
    'live',
    'live',
    'A listed URL answers with content that is not an HTML page (an image, script, JSON, XML, …; PDFs count as pages).',
    'List pages only; images and videos belong in their extensions.',
  ),

  // ---- writer ---------------------------------------------------------------------------------
  own(
    'entry-invalid',
    'error',
    'writer',
    'writer',
    'A record is not an object with a loc, or a field has the wrong type.',
    'Give every record at least {"loc": "https://…"} with fields of the entry model.',
  ),
  own(
    'entry-unknown-field',
    'warning',
    'writer',
    'writer',
    'A record has a field the entry model does not know; it is ignored.',
    'Remove the field or correct its name (loc, lastmod, changefreq, priority, images, videos, news, alternates, mobile, section, title).',
  ),
  own(
    'entry-too-large',
    'error',
    'writer',
    'writer',
    'One entry alone is larger than a file may be (maxBytesPerFile).',
    'Trim the entry (fewer images, shorter texts) or raise maxBytesPerFile.',
  ),
  own(
    'file-full',
    'error',
    'writer',
    'writer',
    'An entry assigned to a named file would pass its URL, byte or news budget (named files never rotate).',
    'Assign the entry to another file.',
  ),
  own(
    'file-name-invalid',
    'error',
    'writer',
    'writer',
    'A named file is not 1–100 of a-z, 0-9, _ and -, or is one of the writer’s own names (sitemap, sitemap-…N).',
    'Pick another name for the file.',
  ),
  own(
    'record-unreadable',
    'error',
    'writer',
    'writer',
    'An input line could not be read (bad JSON, a CSV row of the wrong shape).',
    'Fix the line named in the message.',
  ),
  own(
    'section-invalid',
    'error',
    'writer',
    'writer',
    'A section name is not 1–64 of a-z, 0-9, _ and - (it becomes part of file names).',
    'Use a short lower-case name such as "blog" or "products".',
  ),
  own(
    'image-missing-loc',
    'error',
    'writer',
    'writer',
    'An image of a record has no loc.',
    'Give every image a loc, or pass image URLs as plain strings.',
  ),
  own(
    'images-too-many',
    'error',
    'writer',
    'writer',
    'A record lists more than 1,000 images.',
    'Keep at most 1,000 images per URL.',
  ),
  own(
    'video-missing-field',
    'error',
    'writer',
    'writer',
    'A video of a record lacks thumbnail_loc, title, description, or both content_loc and player_loc.',
    'Give every video thumbnail_loc, title, description and content_loc or player_loc.',
  ),
  own(
    'news-missing-field',
    'error',
    'writer',
    'writer',
    'A news record lacks publication (name, language), publication_date or title.',
    'Give every news entry its publication, publication_date and title.',
  ),
  own(
    'page-noindex',
    'info',
    'writer',
    'writer',
    'generate --from-dir left a page out because it has a robots noindex meta tag.',
    'Nothing needed; remove the noindex if the page should be listed.',
  ),
  own(
    'page-canonicalized',
    'info',
    'writer',
    'writer',
    'generate --from-dir left a page out because its canonical is another URL.',
    'Nothing needed; the canonical URL is listed when it is a page of the folder.',
  ),
  own(
    'page-too-large',
    'warning',
    'writer',
    'writer',
    'A page is larger than the page size cap: generate --from-dir listed it unread, the crawler read only its start.',
    'Raise the cap (--max-page-bytes), or check the page’s robots meta tag and canonical by hand.',
  ),

  // ---- crawler --------------------------------------------------------------------------------
  own(
    'crawl-delay-capped',
    'warning',
    'crawler',
    'crawler',
    'robots.txt asks for a Crawl-delay longer than the crawler’s cap; the cap is used instead.',
    'Raise --max-crawl-delay to honour the site’s delay, or ask the site owner to lower it.',
  ),
  own(
    'retry-after-too-long',
    'warning',
    'crawler',
    'crawler',
    'A server asked to retry after longer than the crawler waits; the URL was given up.',
    'Crawl again later, or raise the longest Retry-After the crawler honours.',
  ),
  own(
    'crawl-address-refused',
    'warning',
    'crawler',
    'crawler',
    'A link, redirect or sitemap entry led from a public address to a private one (loopback, private network, link-local, cloud metadata); the address policy refused it.',
    'If the crawl is meant to reach private addresses, pass --allow-private-addresses (addressPolicy "off").',
  ),
  own(
    'crawl-pattern-capped',
    'warning',
    'crawler',
    'crawler',
    'More URLs of one pattern than the cap (often a crawler trap: calendars, faceted search); the rest were not crawled.',
    'Exclude the pattern, or raise --max-per-pattern if the URLs are real pages.',
  ),
  own(
    'charset-unknown',
    'warning',
    'crawler',
    'crawler',
    'A page declares a charset the crawler does not know; it was read as UTF-8.',
    'Serve pages as UTF-8 with a correct charset.',
  ),
  own(
    'crawl-max-pages',
    'info',
    'crawler',
    'crawler',
    'The crawl stopped at --max-pages with URLs still queued.',
    'Continue with --resume and a larger --max-pages.',
  ),

  // ---- robots lint ----------------------------------------------------------------------------
  ...Object.keys(ROBOTS_RULES)
    .filter((code) => code !== 'robots-sitemap-disallowed')
    .map((code) => robots(code, ROBOTS_RULES[code]!.severity, 'robots-lint')),
];

function build(entries: ReadonlyArray<[string, Rule]>): Readonly<Record<string, Rule>> {
  const out: Record<string, Rule> = {};
  for (const [code, rule] of entries) {
    if (Object.hasOwn(out, code)) throw new Error(`rule ${code} is listed twice`);
    out[code] = rule;
  }
  return Object.freeze(out);
}

/**
 * Every code any part of sitemapkit reports, once, with the validator's severity. Parser and
 * robots codes keep their summary and fix from `PARSER_RULES` and `ROBOTS_RULES`.
 */
export const RULES: Readonly<Record<string, Rule>> = build(ENTRIES);

/** Whether a code is in {@link RULES}. */
export function isRuleCode(code: string): boolean {
  return Object.hasOwn(RULES, code);
}
