/** Sitemap validation: protocol, quality, robots.txt and live rules; reports in four formats. */
export { parseValidateConfig, readValidateConfig, type ValidateConfig } from './config.js';
export {
  formatValidation,
  JSON_REPORT_VERSION,
  REPORT_FORMATS,
  type ReportFormat,
  type ReportOptions,
} from './report/index.js';
export { isRuleCode, RULE_GROUPS, RULES, type Rule, type RuleGroup, type RuleSource } from './rules.js';
export type {
  LiveOptions,
  RuleCount,
  RuleSetting,
  ValidateOptions,
  ValidateProgress,
  ValidateSource,
  ValidationResult,
  ValidationStats,
  ValidationSummary,
} from './types.js';
export { validateSitemap } from './validate.js';
