export { fromByteString, toByteString } from './bytes.js';
export { matchesPattern, robotsPath } from './match.js';
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
