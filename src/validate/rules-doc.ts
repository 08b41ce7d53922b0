/**
 * docs/rules.md, rendered from the rule table. `node scripts/gen-rules-doc.mjs` writes it; a test
 * compares the file with this output, so the docs cannot drift from the code.
 */
import { RULE_GROUPS, RULES, type Rule, type RuleGroup } from './rules.js';

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const SOURCES: Readonly<Record<Rule['source'], string>> = {
  parser: 'parser',
  validator: 'validate',
  live: 'validate --live',
  robots: 'robots',
  writer: 'generate',
  crawler: 'crawl',
  audit: 'audit',
};

/** The whole of docs/rules.md. */
export function renderRulesMarkdown(): string {
  const codes = Object.keys(RULES);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const c of codes) counts[RULES[c]!.severity]++;
  const out: string[] = [
    '# Rules',
    '',
    '<!-- Generated from src/validate/rules.ts by `node scripts/gen-rules-doc.mjs`. Do not edit by hand. -->',
    '',
    `Every diagnostic code sitemapkit reports: ${codes.length} rules (${counts.error} errors, ${counts.warning} warnings, ${counts.info} notes by default).`,
    'Codes are stable: scripts may match on them. **Severity** is what `sitemapkit validate` reports;',
    'where the module that finds the problem reports it differently on its own (for example `sitemapkit parse`,',
    'which keeps reading what the validator fails), that severity is given in brackets.',
    'Change a severity or turn a rule off with `--rule CODE=SEVERITY`, `--disable CODE` or the `rules` of',
    '`sitemapkit.config.json` (see [validate.md](validate.md)).',
    '',
  ];
  const groups = Object.keys(RULE_GROUPS) as RuleGroup[];
  out.push('Sections:', '');
  for (const g of groups) out.push(`- [${RULE_GROUPS[g]}](#${g})`);
  for (const g of groups) {
    const list = codes.filter((c) => RULES[c]!.group === g);
    if (list.length === 0) continue;
    out.push('', `<a id="${g}"></a>`, '', `## ${RULE_GROUPS[g]}`, '');
    out.push('| code | severity | reported by | what it means | fix |', '|---|---|---|---|---|');
    for (const code of list) {
      const r = RULES[code]!;
      const sev = r.reportedAs === undefined ? r.severity : `${r.severity} (${r.reportedAs})`;
      out.push(`| \`${code}\` | ${sev} | ${SOURCES[r.source]} | ${cell(r.summary)} | ${cell(r.fix)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}
