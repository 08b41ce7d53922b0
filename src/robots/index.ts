/** robots.txt: the RFC 9309 parser and matcher, fetching with its cache, and the lint. */
export {
  fetchRobotsTxt,
  RobotsCache,
  type RobotsCacheOptions,
  type RobotsFetchOptions,
  type RobotsFetchResult,
  type RobotsFetchStatus,
  robotsTxtUrl,
} from './fetch.js';
export { DEFAULT_LINT_AGENTS, findSitemapConflict, lintRobotsTxt, type RobotsLintOptions } from './lint.js';
export { escapePattern, isProductToken, matchesPattern, robotsPath } from './match.js';
export type {
  RobotsAgent,
  RobotsGroup,
  RobotsLine,
  RobotsLineKind,
  RobotsMode,
  RobotsRule,
  RobotsSitemapLine,
} from './parse.js';
export {
  type ParseRobotsOptions,
  parseRobotsTxt,
  ROBOTS_MAX_BYTES,
  type RobotsExplanation,
  RobotsTxt,
} from './robots-txt.js';
export { ROBOTS_RULES } from './rules.js';
