import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The XSDs shipped with sitemapkit (see schema/xsd/SOURCES.md); the spec fixtures are in test/fixtures/spec. */
export const XSD_DIR = new URL('../../schema/xsd/', import.meta.url).pathname;
export const SAMPLES_DIR = new URL('../fixtures/spec/samples/', import.meta.url).pathname;
export const SPEC_DIR = new URL('../fixtures/spec/', import.meta.url).pathname;

/** The schema a file must validate against: the index schema for indexes, every extension otherwise. */
export function schemaFor(xml: string): string {
  return join(XSD_DIR, xml.includes('<sitemapindex') ? 'siteindex.xsd' : 'all.local.xsd');
}

/** The document's text, gunzipped when it is gzip. */
export function readSitemapText(path: string): string {
  const data = readFileSync(path);
  return (data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data).toString('utf8');
}

/**
 * Validates a sitemap file with `xmllint --schema` (gzip undone first). Returns xmllint's stderr
 * when it fails, so assertions show why.
 */
export function xmllint(path: string, schema?: string): { ok: boolean; output: string } {
  const text = readSitemapText(path);
  const dir = mkdtempSync(join(tmpdir(), 'sk-xmllint-'));
  const file = join(dir, basename(path).replace(/\.gz$/, ''));
  writeFileSync(file, text);
  const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema ?? schemaFor(text), file], {
    encoding: 'utf8',
  });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

/** Fails loudly when xmllint is missing: tests never skip (npm test installs it). */
export function assertXmllint(): void {
  execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
}
