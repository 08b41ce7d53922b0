import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARSER_RULES } from '../../src/parser/rules.js';

const DOC = readFileSync(new URL('../../docs/parse.md', import.meta.url), 'utf8');

describe('docs/parse.md', () => {
  it.each(Object.entries(PARSER_RULES))('documents %s with its severity, meaning and fix', (code, rule) => {
    const row = DOC.split('\n').find((l) => l.startsWith(`| \`${code}\` |`));
    expect(row, `no table row for ${code}`).toBeDefined();
    const cells = row!.split(' | ');
    expect(cells[1]).toBe(rule.severity);
    expect(cells[2]).toBe(rule.summary.replace(/\|/g, '\\|'));
  });
});
