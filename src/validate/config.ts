/**
 * `sitemapkit.config.json`: the `validate` section holds the validator's settings, so that a
 * project keeps its rule choices (severities, disabled rules, the warning budget) in its repo.
 * Every key and rule code is checked: a typo is an `ERR_OPTIONS`, never silently ignored.
 *
 * @example
 * { "validate": { "rules": { "url-tracking-param": "error", "priority-ignored": "off" }, "maxWarnings": 0 } }
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { ruleSettings } from './options.js';
import { REPORT_FORMATS, type ReportFormat } from './report/index.js';
import type { LiveOptions, RuleSetting } from './types.js';

/** The name looked for in the working folder when no `--config` is given. */
export const CONFIG_FILE_NAME = 'sitemapkit.config.json';

/** The `validate` section of `sitemapkit.config.json`; command-line flags win over it. */
export interface ValidateConfig {
  /** Severity per rule code, or `off`. */
  rules?: Record<string, RuleSetting>;
  /** Rule codes to leave out. */
  disable?: string[];
  /** More warnings than this fail the run (exit 1). */
  maxWarnings?: number;
  /** The crawler robots.txt and meta tags are read for. */
  agent?: string;
  /** Hosts that cross-submit to the sitemap. */
  allowHosts?: string[];
  /** Follow sitemap indexes. */
  recursive?: boolean;
  /** The public URL of a local sitemap file. */
  sitemapUrl?: string;
  /** robots.txt URL or path (relative to the config file), or false for none. */
  robots?: string | false;
  /** Live checks: true, or their settings. */
  live?: boolean | LiveOptions;
  /** Report format. */
  format?: ReportFormat;
}

const LIVE_KEYS: ReadonlySet<string> = new Set([
  'concurrency',
  'perHost',
  'timeoutMs',
  'maxPageBytes',
  'retries',
  'maxRetryAfterMs',
  'method',
  'limit',
  'ignoreRobots',
]);

function bad(where: string, message: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, {
    where,
    hint: 'see "Config file" in docs/validate.md',
  });
}

/** Rule settings checked as the options are, with the file named in the error. */
function checkRules(
  where: string,
  rules: Record<string, RuleSetting> | undefined,
  disable: string[] | undefined,
): void {
  try {
    ruleSettings(rules, disable);
  } catch (e) {
    if (!isSitemapkitError(e)) throw e;
    throw new SitemapkitError('ERR_OPTIONS', `validate.${e.message}`, {
      where,
      ...(e.hint === undefined ? {} : { hint: e.hint }),
    });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(where: string, key: string, v: unknown): string[] {
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    throw bad(where, `validate.${key} must be a list of strings`);
  }
  return [...(v as string[])];
}

/**
 * Reads the `validate` section of a config file's text. `where` names the file in errors and
 * anchors relative paths. A file without a `validate` section gives `{}`.
 */
export function parseValidateConfig(text: string, where: string): ValidateConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `not valid JSON: ${(cause as Error).message}`, { where, cause });
  }
  if (!isObject(json)) throw bad(where, 'the config file must hold a JSON object');
  const section = json['validate'];
  if (section === undefined) return {};
  if (!isObject(section)) throw bad(where, '"validate" must be an object');
  const out: ValidateConfig = {};
  for (const [key, v] of Object.entries(section)) {
    switch (key) {
      case 'rules': {
        if (!isObject(v))
          throw bad(where, 'validate.rules must map rule codes to error, warning, info or off');
        const rules = v as Record<string, RuleSetting>;
        checkRules(where, rules, undefined);
        out.rules = { ...rules };
        break;
      }
      case 'disable':
        out.disable = strings(where, key, v);
        checkRules(where, undefined, out.disable);
        break;
      case 'allowHosts':
        out.allowHosts = strings(where, key, v);
        break;
      case 'maxWarnings':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
          throw bad(where, 'validate.maxWarnings must be a whole number of at least 0');
        out.maxWarnings = v;
        break;
      case 'agent':
      case 'sitemapUrl':
        if (typeof v !== 'string' || v.trim() === '') throw bad(where, `validate.${key} must be a string`);
        out[key] = v;
        break;
      case 'recursive':
        if (typeof v !== 'boolean') throw bad(where, 'validate.recursive must be true or false');
        out.recursive = v;
        break;
      case 'robots':
        if (v === false) out.robots = false;
        else if (typeof v === 'string' && v !== '') {
          out.robots = /^https?:\/\//i.test(v) || isAbsolute(v) ? v : resolve(dirname(resolve(where)), v);
        } else throw bad(where, 'validate.robots must be a URL, a path, or false');
        break;
      case 'live':
        if (typeof v === 'boolean') out.live = v;
        else if (isObject(v)) {
          for (const k of Object.keys(v)) {
            if (!LIVE_KEYS.has(k))
              throw bad(where, `validate.live.${k} is not a setting (${[...LIVE_KEYS].join(', ')})`);
          }
          out.live = { ...(v as LiveOptions) };
        } else throw bad(where, 'validate.live must be true, false or an object of settings');
        break;
      case 'format':
        if (!REPORT_FORMATS.includes(v as ReportFormat))
          throw bad(where, `validate.format must be one of ${REPORT_FORMATS.join(', ')}`);
        out.format = v as ReportFormat;
        break;
      default:
        throw bad(
          where,
          `validate.${key} is not a setting (rules, disable, maxWarnings, agent, allowHosts, recursive, sitemapUrl, robots, live, format)`,
        );
    }
  }
  return out;
}

/** Reads and checks a config file. Throws `ERR_INPUT` when it cannot be read. */
export async function readValidateConfig(path: string): Promise<ValidateConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new SitemapkitError('ERR_INPUT', 'cannot read the config file', {
      where: path,
      cause,
      hint: `give the path of a ${CONFIG_FILE_NAME}`,
    });
  }
  return parseValidateConfig(text, path);
}
