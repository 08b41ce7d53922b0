// The npm `sitemap` package's schema validation, `xmlLint` (what `sitemap --validate` runs):
// xmllint --schema against its bundled all.xsd, one file at a time over stdin. It finds the schema
// through process.cwd(), so this script moves into node_modules/sitemap first.
import { createReadStream, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { xmlLint } from 'sitemap';

const dir = resolve(process.argv[2]);
process.chdir(fileURLToPath(new URL('../../node_modules/sitemap/', import.meta.url)));
let files = 0;
let failures = 0;
for (const name of readdirSync(dir)
  .filter((n) => /^sitemap-\d+\.xml$/.test(n))
  .sort()) {
  await xmlLint(createReadStream(join(dir, name))).catch(() => {
    failures++;
  });
  files++;
}
console.log(JSON.stringify({ files, failures }));
