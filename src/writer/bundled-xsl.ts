import { createHash } from 'node:crypto';
import type { ManifestFile } from './manifest.js';
import type { CommitFile, Sink } from './sink.js';

/** The bundled stylesheet's bytes and hash; read from the package's assets on first use. */
export async function bundledXsl(): Promise<{ data: Uint8Array; sha256: string }> {
  const { readFile } = await import('node:fs/promises');
  const data = await readFile(new URL('../../assets/sitemap.xsl', import.meta.url));
  return { data, sha256: createHash('sha256').update(data).digest('hex') };
}

/** Puts the bundled stylesheet into a set as `sitemap.xsl`: its manifest line and commit step. */
export async function putBundledXsl(
  sink: Sink,
  baseUrl: string,
): Promise<{ file: ManifestFile; commit: CommitFile }> {
  const sheet = await bundledXsl();
  await sink.put(XSL_NAME, sheet.data);
  return {
    file: {
      path: XSL_NAME,
      url: baseUrl + XSL_NAME,
      kind: 'xsl',
      bytes: sheet.data.length,
      sha256: sheet.sha256,
    },
    commit: { name: XSL_NAME, as: XSL_NAME, sha256: sheet.sha256 },
  };
}

/** The stylesheet's name in a set. */
export const XSL_NAME = 'sitemap.xsl';
