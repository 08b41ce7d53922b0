/**
 * The report for CI: JUnit XML as Jenkins, GitLab and GitHub test reporters read it (the Ant
 * JUnit format). One `<testsuite>` per sitemap, one `<testcase>` per rule that fired there: an
 * error rule is a `<failure>`; warnings and notes pass and carry their findings in `<system-out>`.
 * A sitemap without findings has one passing test case, so that clean runs show up too.
 */
import type { Diagnostic } from '../../core/diagnostics.js';
import { escapeXml } from '../../core/xml.js';
import { RULES } from '../rules.js';
import type { ValidationResult } from '../types.js';
import { whereOf } from './text.js';

/** Findings listed per test case at most. */
const LISTED = 50;

// Control characters XML 1.0 cannot carry at all (they can reach messages through URLs or values).
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function x(s: string): string {
  return escapeXml(s.replace(CONTROL, '\uFFFD'));
}

function seconds(r: ValidationResult): string {
  const ms = Date.parse(r.finishedAt) - Date.parse(r.startedAt);
  return (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);
}

export function formatJunit(r: ValidationResult): string {
  const examples = new Map<string, Diagnostic[]>();
  for (const d of r.diagnostics) {
    const key = `${d.sitemap ?? ''}\n${d.code}`;
    const list = examples.get(key);
    if (list === undefined) examples.set(key, [d]);
    else if (list.length < LISTED) list.push(d);
  }
  const severityOf = new Map(r.rules.map((rule) => [rule.code, rule.severity]));
  const names = [...new Set([...r.sitemaps.map((s) => s.sitemap), ...Object.keys(r.perSitemap)])];
  let tests = 0;
  let failures = 0;
  const suites: string[] = [];
  for (const name of names) {
    const counts = r.perSitemap[name] ?? {};
    const cases: string[] = [];
    let suiteFailures = 0;
    const suiteName = name === '' ? '(site)' : name;
    for (const [code, count] of Object.entries(counts)) {
      const severity = severityOf.get(code) ?? RULES[code]?.severity ?? 'warning';
      const listed = examples.get(`${name}\n${code}`) ?? [];
      const body = [
        ...listed.map(
          (d) =>
            `${whereOf(d) || suiteName}: ${d.message}${d.url !== undefined && !d.message.includes(d.url) ? ` (${d.url})` : ''}`,
        ),
        ...(count > listed.length ? [`… and ${count - listed.length} more`] : []),
        ...(RULES[code] === undefined ? [] : [`fix: ${RULES[code]!.fix}`]),
      ].join('\n');
      const summary = `${count} × ${code}: ${RULES[code]?.summary ?? ''}`;
      const open = `    <testcase classname="${x(suiteName)}" name="${x(code)}" time="0">`;
      if (severity === 'error') {
        suiteFailures++;
        cases.push(
          `${open}\n      <failure message="${x(summary)}" type="${x(code)}">${x(body)}</failure>\n    </testcase>`,
        );
      } else {
        cases.push(
          `${open}\n      <system-out>${x(`${severity}: ${summary}\n${body}`)}</system-out>\n    </testcase>`,
        );
      }
    }
    if (cases.length === 0) {
      cases.push(`    <testcase classname="${x(suiteName)}" name="valid" time="0"/>`);
    }
    tests += cases.length;
    failures += suiteFailures;
    suites.push(
      `  <testsuite name="${x(suiteName)}" tests="${cases.length}" failures="${suiteFailures}" errors="0" skipped="0" time="0" timestamp="${x(r.startedAt.slice(0, 19))}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="sitemapkit validate" tests="${tests}" failures="${failures}" errors="0" time="${seconds(r)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
