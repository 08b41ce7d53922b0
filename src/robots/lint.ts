/**
 * robots.txt lint: findings as {@link Diagnostic}s with the codes of {@link ROBOTS_RULES}. Pure and
 * synchronous; {@link findSitemapConflict} checks one sitemap URL at a time so that callers can
 * stream millions of them.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { RobotsGroup, RobotsRule } from './parse.js';
import type { RobotsTxt } from './robots-txt.js';
import { ROBOTS_RULES } from './rules.js';

/** Options of {@link lintRobotsTxt} and {@link findSitemapConflict}. */
export interface RobotsLintOptions {
  /** Names the file in the diagnostics (`sitemap` field), e.g. its path or URL. */
  source?: string;
  /** Sitemap URLs to check against the rules: each disallowed one is a `robots-sitemap-disallowed`. */
  sitemapUrls?: Iterable<string>;
  /**
   * The crawlers sitemap URLs are checked for. `*` stands for a crawler with no group of its own.
   * @default ['*', 'Googlebot', 'Bingbot']
   */
  agents?: readonly string[];
}

/** The crawlers a sitemap URL is checked for when none are given. */
export const DEFAULT_LINT_AGENTS: readonly string[] = ['*', 'Googlebot', 'Bingbot'];

// Non-standard keys some engines read: unsupported directives, not typos, so only worth a note,
// with what to use instead (the rule's own fix, "Correct the spelling", does not apply to them).
const KNOWN_EXTENSIONS: Record<string, { note: string; fix: string }> = {
  host: {
    note: 'Host is a Yandex extension that Yandex itself dropped in 2018; no other crawler reads it',
    fix: 'Host is an unsupported directive, not a typo: remove it, and choose the preferred host with a 301 redirect from the other hosts and <link rel="canonical"> on the pages.',
  },
  'clean-param': {
    note: 'Clean-param is read by Yandex only',
    fix: 'Clean-param is an unsupported directive for every crawler but Yandex, not a typo: keep it for Yandex if you like, and point parameter variants at one URL with <link rel="canonical"> for the others.',
  },
  'request-rate': {
    note: 'Request-rate is a non-standard extension few crawlers read',
    fix: 'Request-rate is an unsupported directive, not a typo: remove it, and limit the crawl rate in the search engines’ webmaster tools or answer 429/503 with Retry-After when overloaded.',
  },
  'visit-time': {
    note: 'Visit-time is a non-standard extension few crawlers read',
    fix: 'Visit-time is an unsupported directive, not a typo: remove it, and answer 429/503 with Retry-After at the times crawlers should stay away.',
  },
  noindex: {
    note: 'Google stopped obeying noindex in robots.txt on 2019-09-01: use a noindex meta tag or X-Robots-Tag header',
    fix: 'Noindex is an unsupported directive, not a typo: remove it, and mark the pages with <meta name="robots" content="noindex"> or an X-Robots-Tag: noindex header (and leave them crawlable, so that crawlers can see it).',
  },
  nofollow: {
    note: 'nofollow in robots.txt is not obeyed: use a meta tag or X-Robots-Tag header',
    fix: 'Nofollow is an unsupported directive, not a typo: remove it, and use <meta name="robots" content="nofollow">, an X-Robots-Tag: nofollow header, or rel="nofollow" on the links.',
  },
  'content-signal': {
    note: 'Content-Signal is a proposed extension, not part of RFC 9309',
    fix: 'Content-Signal is a proposed extension, not a typo: keep it if you mean it; crawlers that do not read it ignore the line.',
  },
};

function make(
  code: keyof typeof ROBOTS_RULES & string,
  message: string,
  extra: Partial<Diagnostic>,
  source?: string,
): Diagnostic {
  const info = ROBOTS_RULES[code]!;
  const d: Diagnostic = { code, severity: info.severity, message, fix: info.fix, ...extra };
  if (source !== undefined) d.sitemap = source;
  return d;
}

/** Every rule that can never decide for any crawler, with why. */
function unreachableRules(robots: RobotsTxt): Map<RobotsRule, string> {
  const out = new Map<RobotsRule, string>();
  const keysOf = (g: RobotsGroup): string[] =>
    g.agents.flatMap((a) => (a.global ? ['*'] : a.token === '' ? [] : [a.token.toLowerCase()]));
  // Rule lists of each crawler key, merged over its groups in file order.
  const merged = new Map<string, RobotsRule[]>();
  for (const g of robots.groups) {
    for (const key of new Set(keysOf(g))) {
      const list = merged.get(key) ?? [];
      list.push(...g.rules);
      merged.set(key, list);
    }
  }
  const shadow = new Map<string, Map<RobotsRule, string>>();
  for (const [key, rules] of merged) {
    const why = new Map<RobotsRule, string>();
    const first = new Map<string, RobotsRule>();
    for (const r of rules) {
      const earlier = first.get(`${r.type} ${r.pattern}`);
      if (earlier !== undefined) why.set(r, `it repeats ${earlier.directive} (line ${earlier.line})`);
      else first.set(`${r.type} ${r.pattern}`, r);
    }
    for (const r of rules) {
      if (r.type !== 'disallow' || why.has(r)) continue;
      const allow = first.get(`allow ${r.pattern}`);
      if (allow !== undefined)
        why.set(r, `${allow.directive} (line ${allow.line}) is as long and Allow wins ties`);
    }
    shadow.set(key, why);
  }
  for (const g of robots.groups) {
    const keys = [...new Set(keysOf(g))];
    for (const r of g.rules) {
      if (keys.length === 0) {
        const names = g.agents.map((a) => a.value || '(empty)').join(', ');
        out.set(
          r,
          `its group (line ${g.startLine}) names no product token that a crawler could match: ${names}`,
        );
      } else if (r.pattern !== '' && r.pattern[0] !== '/' && r.pattern[0] !== '*') {
        out.set(r, 'a path must start with / or *: this pattern matches no URL');
      } else if (r.type === 'allow' && r.pattern === '') {
        out.set(r, 'an empty Allow matches nothing and allows nothing');
      } else {
        const reasons = keys.map((k) => shadow.get(k)?.get(r));
        if (reasons.every((x) => x !== undefined)) out.set(r, reasons[0]!);
      }
    }
  }
  return out;
}

/**
 * Lints a parsed robots.txt: rules outside any group, unknown directives and invalid lines,
 * typos and missing colons Google forgives, unreachable rules, product tokens, Crawl-delay,
 * Sitemap lines, size, and (with `sitemapUrls`) sitemap URLs the rules disallow.
 * Diagnostics come sorted by line; sitemap conflicts come last, in the order of the URLs.
 */
export function lintRobotsTxt(robots: RobotsTxt, options: RobotsLintOptions = {}): Diagnostic[] {
  const src = options.source;
  const out: Diagnostic[] = [];
  if (robots.truncated) {
    out.push(
      make(
        'robots-too-large',
        `the file has ${robots.bytes} bytes; only the first 512,000 (500 KiB) are read`,
        {},
        src,
      ),
    );
  }
  for (const r of robots.orphanRules) {
    out.push(
      make(
        'robots-rule-outside-group',
        `${r.directive} comes before any User-agent line and applies to no crawler`,
        { line: r.line },
        src,
      ),
    );
  }
  const unreachable = unreachableRules(robots);
  for (const l of robots.lines) {
    const at = { line: l.line };
    if (l.tooLong)
      out.push(
        make('robots-line-too-long', 'line longer than 16,663 bytes: Google ignores the rest', at, src),
      );
    if (l.kind === 'invalid') {
      out.push(make('robots-invalid-line', `"${clip(l.text.trim())}" is not a key: value line`, at, src));
      continue;
    }
    if (l.key === undefined) continue;
    if (l.typo) out.push(make('robots-typo', `"${l.key}" is read as ${l.kind} by Google only`, at, src));
    if (l.missingColon)
      out.push(make('robots-missing-colon', `"${clip(l.text.trim())}" has no colon after the key`, at, src));
    if (l.kind === 'unknown') {
      const known = KNOWN_EXTENSIONS[l.key.toLowerCase()];
      if (known === undefined) {
        const message = `"${l.key}" is not a robots.txt directive; crawlers ignore the line`;
        out.push(make('robots-unknown-directive', message, at, src));
      } else {
        const d = make('robots-unknown-directive', known.note, at, src);
        out.push({ ...d, severity: 'info', fix: known.fix });
      }
    } else if (l.kind === 'crawl-delay') {
      if (l.group === undefined) {
        out.push(
          make('robots-crawl-delay-invalid', 'Crawl-delay outside any group applies to no crawler', at, src),
        );
      } else if (!/^(\d+(\.\d+)?|\.\d+)$/.test(l.value ?? '')) {
        out.push(
          make('robots-crawl-delay-invalid', `Crawl-delay "${l.value}" is not a number of seconds`, at, src),
        );
      }
    }
  }
  for (const g of robots.groups) {
    for (const a of g.agents) {
      if (a.global || a.token === a.value) continue;
      const message =
        a.token === ''
          ? `User-agent "${a.value}" has no product token: no crawler matches it`
          : `User-agent "${a.value}" is matched as "${a.token}" (product tokens are letters, _ and -)`;
      out.push(make('robots-agent-token', message, { line: a.line }, src));
    }
    for (const r of g.rules) {
      const why = unreachable.get(r);
      if (why !== undefined)
        out.push(
          make('robots-unreachable-rule', `${r.directive} never decides: ${why}`, { line: r.line }, src),
        );
    }
  }
  for (const s of robots.sitemapLines) {
    if (s.relative) {
      const resolved = s.url === undefined ? '' : ` (resolved here to ${s.url}, but crawlers may not)`;
      out.push(
        make('robots-sitemap-relative', `Sitemap: ${s.value} is relative${resolved}`, { line: s.line }, src),
      );
    } else if (s.url === undefined) {
      out.push(
        make(
          'robots-sitemap-invalid',
          `Sitemap: ${clip(s.value)} is not an http(s) URL`,
          { line: s.line },
          src,
        ),
      );
    }
  }
  if (robots.sitemapLines.length === 0 && robots.fixedReason === undefined) {
    out.push(make('robots-no-sitemap', 'no Sitemap: line', {}, src));
  }
  out.sort((x, y) => (x.line ?? 0) - (y.line ?? 0));
  if (options.sitemapUrls !== undefined) {
    for (const url of options.sitemapUrls) {
      const d = findSitemapConflict(robots, url, options);
      if (d !== undefined) out.push(d);
    }
  }
  return out;
}

/**
 * The `robots-sitemap-disallowed` diagnostic for one sitemap URL, or undefined when every agent
 * in `options.agents` may fetch it. The line is the deciding rule for the first such agent.
 */
export function findSitemapConflict(
  robots: RobotsTxt,
  url: string,
  options: RobotsLintOptions = {},
): Diagnostic | undefined {
  const agents = options.agents ?? DEFAULT_LINT_AGENTS;
  const blocked: string[] = [];
  let first: { line: number | null; rule: string | null } | undefined;
  for (const agent of agents) {
    const e = robots.explain(url, agent);
    if (e.allowed) continue;
    blocked.push(agent === '*' ? 'every crawler without a group of its own (*)' : agent);
    first ??= e;
  }
  if (first === undefined) return undefined;
  const by =
    first.rule === null ? '' : ` by ${first.rule}${first.line === null ? '' : ` (line ${first.line})`}`;
  const extra: Partial<Diagnostic> = { url };
  if (first.line !== null) extra.line = first.line;
  return make(
    'robots-sitemap-disallowed',
    `${url} is in the sitemap but disallowed for ${blocked.join(', ')}${by}`,
    extra,
    options.source,
  );
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
