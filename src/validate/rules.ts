/**
 * The one table of every diagnostic code sitemapkit reports (parser, validator, live checks,
 * robots.txt lint, writer), with the severity the validator gives it, what it means and the fix.
 * docs/rules.md is generated from it (`node scripts/gen-rules-doc.mjs`); a test fails when the two
 * drift. Codes are public API: never renamed or reused.
 */
import { ROBOTS_RULES } from '../robots/rules.js';
import { AUDIT_RULES } from './rules-audit.js';
import { own, parser, type Rule, robots } from './rules-model.js';
import { SITE_RULES } from './rules-site.js';
import { TOOL_RULES } from './rules-tools.js';

export { RULE_GROUPS, type Rule, type RuleGroup, type RuleSource } from './rules-model.js';

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
  own(
    'url-not-normal',
    'warning',
    'protocol',
    'validator',
    'A <loc> is not written in its normal form (raw spaces or non-ASCII characters, upper-case scheme or host, no / after the host, a default port, dot segments): readers that compare URLs as written see another URL than search engines do.',
    'Write the normal form given in the message (percent-encoded, punycode host, lower-case scheme and host).',
  ),
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
  parser('alternate-no-hreflang', 'warning', 'extensions'),
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
  parser('index-loc-bare', 'error', 'index'),
  parser('index-loc-repeated', 'error', 'index'),
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
    'The source is a sitemap index read alone (--no-recursive, standard input, or a local file without --sitemap-url, whose children would be fetched from the live site): the sitemaps it lists were not validated.',
    'Drop --no-recursive; for a local index give --sitemap-url (its children are read from beside it) or -r to fetch them (library: recursive: true).',
  ),

  ...SITE_RULES,
  ...TOOL_RULES,
  ...AUDIT_RULES,
  // ---- robots lint ----------------------------------------------------------------------------
  ...Object.keys(ROBOTS_RULES)
    .filter((code) => code !== 'robots-sitemap-disallowed')
    .map((code) => robots(code, 'robots-lint')),
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
