import type { RuleInfo } from '../core/diagnostics.js';

/** Every robots.txt lint rule, by its stable code. Documented in docs/robots.md. */
export const ROBOTS_RULES: Record<string, RuleInfo> = {
  'robots-rule-outside-group': {
    severity: 'warning',
    summary:
      'An Allow or Disallow line comes before any User-agent line, so it applies to no crawler (RFC 9309 §2.1).',
    fix: 'Put a User-agent line (for example `User-agent: *`) above it.',
  },
  'robots-unknown-directive': {
    severity: 'warning',
    summary:
      'The key is not a robots.txt directive: crawlers ignore the line. Known extensions (Host, Noindex, Clean-param, …) are a note whose fix says what to use instead.',
    fix: 'Correct the spelling (user-agent, allow, disallow, sitemap, crawl-delay) or remove the line; for a known extension, see the note’s own fix.',
  },
  'robots-invalid-line': {
    severity: 'warning',
    summary: 'The line is neither a comment nor `key: value`: crawlers ignore it.',
    fix: 'Write it as `key: value`, or start it with # to make it a comment.',
  },
  'robots-typo': {
    severity: 'warning',
    summary: 'Google accepts this misspelled key; RFC 9309 and other crawlers do not.',
    fix: 'Spell the key exactly: User-agent, Allow, Disallow or Sitemap.',
  },
  'robots-missing-colon': {
    severity: 'warning',
    summary:
      'The key and value are separated by whitespace: Google accepts it, RFC 9309 and other crawlers do not.',
    fix: 'Put a colon after the key, e.g. `Disallow: /private/`.',
  },
  'robots-unreachable-rule': {
    severity: 'warning',
    summary:
      'The rule can never decide for any crawler: a duplicate, a Disallow tied with an equal Allow, an empty Allow, a path without a leading / or *, or a group no crawler matches.',
    fix: 'Remove the rule or correct it (paths start with / or *).',
  },
  'robots-agent-token': {
    severity: 'warning',
    summary:
      'The User-agent value is not a product token (letters, _ and -): crawlers match only its leading letters.',
    fix: 'Write just the product token, e.g. `User-agent: Googlebot` rather than `Googlebot/2.1`.',
  },
  'robots-crawl-delay-invalid': {
    severity: 'warning',
    summary: 'Crawl-delay is not a number of seconds, or stands outside any group: it is ignored.',
    fix: 'Write a number of seconds inside a group, e.g. `Crawl-delay: 5` (Google ignores Crawl-delay altogether).',
  },
  'robots-sitemap-relative': {
    severity: 'error',
    summary: 'The Sitemap: line gives a relative URL; the directive needs a fully qualified URL.',
    fix: 'Write the absolute URL, e.g. `Sitemap: https://www.example.com/sitemap.xml`.',
  },
  'robots-sitemap-invalid': {
    severity: 'error',
    summary: 'The Sitemap: line is not an http(s) URL.',
    fix: 'Write the absolute http(s) URL of the sitemap or sitemap index.',
  },
  'robots-no-sitemap': {
    severity: 'info',
    summary:
      'robots.txt names no sitemap; a Sitemap: line is how every crawler finds it without a search console.',
    fix: 'Add `Sitemap: https://www.example.com/sitemap.xml` (anywhere in the file).',
  },
  'robots-sitemap-disallowed': {
    // One severity everywhere (robots lint and validate): a quality finding, as validate words it.
    severity: 'warning',
    summary:
      'A URL listed in the sitemap is disallowed by robots.txt: crawlers may not fetch the page the sitemap asks them to index.',
    fix: 'Remove the URL from the sitemap, or change the deciding rule so that the URL is allowed.',
  },
  'robots-line-too-long': {
    severity: 'warning',
    summary: "The line is longer than Google's 16,663-byte line cap: Google ignores the rest of it.",
    fix: 'Shorten the line.',
  },
  'robots-too-large': {
    severity: 'error',
    summary: 'The file is larger than 500 KiB: crawlers ignore everything past the limit (RFC 9309 §2.5).',
    fix: 'Shorten the file: merge rules with * patterns and drop the ones that do not matter.',
  },
};
