#!/usr/bin/env node
// Writes docs/rules.md from the rule table (src/validate/rules.ts, through the build in dist/).
// Usage: npm run build && node scripts/gen-rules-doc.mjs   (test/validate/rules.test.ts fails when it is stale)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { renderRulesMarkdown } = await import('../dist/validate/rules-doc.js');
const out = fileURLToPath(new URL('../docs/rules.md', import.meta.url));
writeFileSync(out, renderRulesMarkdown());
console.log(`wrote ${out}`);
