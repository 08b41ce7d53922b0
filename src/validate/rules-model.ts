/** The shape of a rule in the rule table, its sections, and the helpers that make its rows. */
import type { RuleInfo, Severity } from '../core/diagnostics.js';
import { PARSER_RULES, type ParserRuleCode } from '../parser/rules.js';
import { ROBOTS_RULES } from '../robots/rules.js';

/** The part of sitemapkit that reports a code. */
export type RuleSource = 'parser' | 'validator' | 'live' | 'robots' | 'writer' | 'crawler' | 'audit';

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
  | 'audit'
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
  audit: 'Audit (`audit`): the published sitemap against the crawled site',
  'robots-lint': 'robots.txt lint (`robots lint`)',
};

export function parser(code: ParserRuleCode, severity: Severity, group: RuleGroup): [string, Rule] {
  const info = PARSER_RULES[code];
  const rule: Rule = { severity, summary: info.summary, fix: info.fix, source: 'parser', group };
  if (info.severity !== severity) rule.reportedAs = info.severity;
  return [code, rule];
}

export function own(
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

/**
 * A robots.txt rule, with the severity of `ROBOTS_RULES`: `robots lint` and `validate` report a
 * robots.txt finding alike, so the validator has no severity of its own for it.
 */
export function robots(code: string, group: RuleGroup): [string, Rule] {
  const info = ROBOTS_RULES[code];
  if (info === undefined) throw new Error(`no robots rule ${code}`);
  return [code, { severity: info.severity, summary: info.summary, fix: info.fix, source: 'robots', group }];
}
